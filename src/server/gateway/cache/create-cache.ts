import type { Config } from '../../config/schema.js';
import type { AuditRepository } from '../accounting/audit.repository.js';
import type { GatewayMetrics } from '../metrics/gateway-metrics.js';
import type { ModelRegistry } from '../model-registry/model-registry.js';
import type { SettingsRepository } from '../model-registry/settings.repository.js';
import type { GatewayEventBus } from '../traffic/event-bus.js';
import { CacheAdmin } from './cache-admin.js';
import { ResponseCache } from './response-cache.js';
import { CacheNames, type CacheNameSources } from './cache-names.js';

/** The response cache and its admin side, with the settings in force (a stored override, else the file's). */
export function createResponseCache(args: {
  readonly config: Config;
  readonly repository: SettingsRepository;
  readonly registry: ModelRegistry;
  readonly metrics: GatewayMetrics;
  readonly audit: AuditRepository;
  readonly bus: GatewayEventBus;
  /** Stored settings that no longer validate, at start; answers too large to keep, while serving. */
  readonly warn: (message: string) => void;
  /** Where rules and purges find the keys and teams they name. */
  readonly names: Omit<CacheNameSources, 'registry'>;
}): { cache: ResponseCache; admin: CacheAdmin } {
  const initial = CacheAdmin.initialSettings(args.config.cache, args.repository, args.warn);
  const cache = new ResponseCache(initial.settings, args.registry, args.metrics, args.warn);
  const names = new CacheNames({ ...args.names, registry: args.registry });
  const admin = new CacheAdmin(
    cache,
    args.config.cache,
    args.repository,
    args.audit,
    args.bus,
    names,
    initial.updatedAt,
  );
  return { cache, admin };
}
