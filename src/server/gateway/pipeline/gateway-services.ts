import type { Config } from '../../config/schema.js';
import { AuditRepository } from '../accounting/audit.repository.js';
import { openBatchConnection } from '../accounting/batch-connection.js';
import { PriceTable } from '../accounting/pricing.js';
import { UsageRecorder } from '../accounting/usage-recorder.js';
import { UsageRepository } from '../accounting/usage.repository.js';
import type { GatewayContext } from '../gateway-context.js';
import { KeysRepository } from '../keys/keys.repository.js';
import { KeysService } from '../keys/keys.service.js';
import { GatewayMetrics } from '../metrics/gateway-metrics.js';
import { DeploymentHealthTracker } from '../model-registry/deployment-health.js';
import { ModelRegistry } from '../model-registry/model-registry.js';
import { SettingsRepository } from '../model-registry/settings.repository.js';
import { GatewayEventBus } from '../traffic/event-bus.js';
import { TrafficLog } from '../traffic/traffic-log.js';
import type { ProviderPort } from './provider-port.js';
import { compilePolicyStages, type OutputStages, type PolicyStage, type PolicyStages } from './stages/policy-stages.js';

/** Every long-lived service of the gateway, built once per app. */
export interface GatewayServices {
  readonly config: Config;
  readonly masterKey: string;
  readonly registry: ModelRegistry;
  readonly keys: KeysService;
  readonly recorder: UsageRecorder;
  readonly usage: UsageRepository;
  readonly audit: AuditRepository;
  readonly prices: PriceTable;
  readonly metrics: GatewayMetrics;
  readonly traffic: TrafficLog;
  readonly bus: GatewayEventBus;
  readonly health: DeploymentHealthTracker;
  readonly providers: ProviderPort;
  /** Installed policy stages in the documented order (empty in this issue). */
  readonly policy: readonly PolicyStage[];
  readonly output: OutputStages;
  /** Writes what is pending (usage batch, key last-use times) and stops timers. */
  close(): void;
}

/** Extension points the app (or a test) may fill. */
export interface ServiceOptions {
  readonly providers: ProviderPort;
  readonly policy?: PolicyStages;
  readonly output?: OutputStages;
  readonly env?: NodeJS.ProcessEnv;
  readonly log?: (message: string, error: unknown) => void;
}

/** Builds the gateway's services over the shared database and metrics registry; ConfigError for unroutable deployments. */
export function createGatewayServices(ctx: GatewayContext, options: ServiceOptions): GatewayServices {
  const { sqlite, db } = ctx.database;
  // First: it refuses a configuration whose deployments cannot be routed (ConfigError), before any
  // connection or timer below exists that would then be left open.
  const registry = new ModelRegistry({
    config: ctx.config,
    repository: new SettingsRepository(db),
    inferProvider: options.providers.inferProvider,
    deploymentProblem: (deployment) => options.providers.deploymentProblem(deployment),
    env: options.env,
  });
  const batch = openBatchConnection(ctx.database);
  const keys = new KeysService(new KeysRepository(db, batch.sqlite));
  const usage = new UsageRepository(sqlite);
  const audit = new AuditRepository(sqlite);
  const recorder = new UsageRecorder(new UsageRepository(batch.sqlite), sqlite, usage, audit, {
    onError: (error, rows) => options.log?.(`could not write ${rows} usage rows`, error),
  });
  const bus = new GatewayEventBus();
  return {
    config: ctx.config,
    masterKey: ctx.masterKey,
    registry,
    keys,
    recorder,
    usage,
    audit,
    prices: new PriceTable(ctx.config.pricing),
    metrics: new GatewayMetrics(ctx.registry),
    traffic: new TrafficLog(ctx.config.gateway.traffic_buffer, bus),
    bus,
    health: new DeploymentHealthTracker(),
    providers: options.providers,
    policy: compilePolicyStages(options.policy ?? {}),
    output: options.output ?? {},
    close: () => {
      recorder.close();
      keys.close();
      batch.close();
    },
  };
}
