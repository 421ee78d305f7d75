import {
  cacheSettingsSchema,
  type CachePurge,
  type CacheSettings,
  type CacheSettingsUpdate,
  type CacheView,
} from '../../../shared/cache-api.js';
import type { AuditRepository } from '../accounting/audit.repository.js';
import type { AdminActor } from '../admin/admin.service.js';
import { GatewayError } from '../gateway-error.js';
import { sameSettings } from '../model-registry/model-registry.js';
import type { SettingsRepository } from '../model-registry/settings.repository.js';
import type { GatewayEventBus } from '../traffic/event-bus.js';
import type { ResponseCache } from './response-cache.js';
import type { CacheNames } from './cache-names.js';
import { recordAction } from '../accounting/record-action.js';

/**
 * The cache's settings: the configuration file's, unless the admin API changed them (kept in
 * gateway_settings, so a restart keeps the change), and the admin actions on the cache, each audited.
 */
export class CacheAdmin {
  #source: { kind: 'config' } | { kind: 'database'; updatedAt: number };

  constructor(
    private readonly cache: ResponseCache,
    private readonly fileSettings: CacheSettings,
    private readonly repository: SettingsRepository,
    private readonly audit: AuditRepository,
    private readonly bus: GatewayEventBus,
    private readonly names: CacheNames,
    /** When the settings in force were stored through the admin API; undefined: the file's. */
    storedAt: number | undefined,
  ) {
    this.#source = storedAt === undefined ? { kind: 'config' } : { kind: 'database', updatedAt: storedAt };
  }

  /**
   * The settings to start with: the stored override when there is a valid one. One that no longer
   * validates (a newer schema) is ignored, and said why through `warn`, rather than stopping the start.
   */
  static initialSettings(
    fileSettings: CacheSettings,
    repository: SettingsRepository,
    warn: (message: string) => void,
  ): { settings: CacheSettings; updatedAt: number | undefined } {
    const stored = repository.get<unknown>('cache');
    if (stored === undefined) return { settings: fileSettings, updatedAt: undefined };
    const parsed = cacheSettingsSchema.safeParse(stored.value);
    if (parsed.success) return { settings: parsed.data, updatedAt: stored.updatedAt };
    warn(
      `stored cache settings are not valid any more (${parsed.error.issues[0]?.message}); using the configuration file's`,
    );
    return { settings: fileSettings, updatedAt: undefined };
  }

  /** Settings, where they came from, and counters. */
  view(): CacheView {
    const source = this.#source;
    return {
      settings: this.cache.settings(),
      source: source.kind,
      updated_at: source.kind === 'database' ? new Date(source.updatedAt).toISOString() : null,
      stats: this.cache.stats(),
    };
  }

  /**
   * Changes the listed fields (or returns to the file's settings), persisted and in force at once; the
   * answer and the audit say how many kept answers the change forgot (see ResponseCache.configure). A
   * save of the settings in force writes nothing, so settings still read from the file stay so.
   */
  update(update: CacheSettingsUpdate, actor: AdminActor): CacheView {
    const { reset, ...fields } = update;
    const before = this.cache.settings();
    const sourceBefore = this.#source.kind;
    let purged: number;
    if (reset === true) {
      const named = Object.keys(fields);
      if (named.length > 0)
        throw new GatewayError(
          'invalid',
          `reset cannot be combined with ${named.join(', ')}: reset returns the cache to the configuration file's settings; send the reset and the new values as two requests`,
        );
      if (sourceBefore === 'config') return { ...this.view(), purged: 0 };
      this.repository.delete('cache');
      purged = this.cache.configure(this.fileSettings);
      this.#source = { kind: 'config' };
    } else {
      this.names.checkRules(fields, before);
      const next: CacheSettings = { ...before, ...fields };
      if (next.max_entry_bytes > next.max_bytes)
        throw new GatewayError(
          'invalid',
          `max_entry_bytes (${next.max_entry_bytes}) must not exceed max_bytes (${next.max_bytes})`,
        );
      if (sameSettings(next, before)) return { ...this.view(), purged: 0 };
      const now = Date.now();
      this.repository.put('cache', next, now);
      purged = this.cache.configure(next);
      this.#source = { kind: 'database', updatedAt: now };
    }
    const sourceAfter = this.#source.kind;
    this.record(actor, reset === true ? 'cache.reset' : 'cache.update', {
      before,
      after: this.cache.settings(),
      ...(sourceBefore !== sourceAfter ? { source: { before: sourceBefore, after: sourceAfter } } : {}),
      purged,
    });
    return { ...this.view(), purged };
  }

  /** Forgets kept answers; audited with the filter used. Names that exist nowhere are refused (CacheNames). */
  purge(filter: CachePurge, actor: AdminActor): { purged: number } {
    this.names.checkPurge(filter, (one) => this.cache.holds(one));
    const purged = this.cache.purge(filter);
    this.record(actor, 'cache.purge', { ...filter, purged });
    return { purged };
  }

  private record(actor: AdminActor, action: string, details: Record<string, unknown>): void {
    const entry = { createdAt: Date.now(), actor: 'master', action, target: null, requestId: actor.requestId, details };
    recordAction(this.audit, this.bus, entry, { topic: 'cache' });
  }
}
