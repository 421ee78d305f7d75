import { ownCredentials, type OwnCredential } from '../keys/own-credentials.js';
import fp from 'fastify-plugin';
import type { Registry } from 'prom-client';
import type { Config } from '../../config/schema.js';
import type { DatabaseHandle } from '../../db/connection.js';
import type { RevisionEvents } from '../../store/engine/revision-events.js';
import { AuditRepository } from '../accounting/audit.repository.js';
import { openBatchConnection } from '../accounting/batch-connection.js';
import { PriceTable } from '../accounting/pricing.js';
import { UsageRecorder } from '../accounting/usage-recorder.js';
import { importUnwrittenUsage, keepUnwrittenUsage } from '../accounting/unwritten-usage.js';
import { UsageRepository } from '../accounting/usage.repository.js';
import { AdminService } from '../admin/admin.service.js';
import { PrincipalsAdmin } from '../admin/principals-admin.service.js';
import { KeysRepository } from '../keys/keys.repository.js';
import { KeysService } from '../keys/keys.service.js';
import { Limiter } from '../limits/limiter.js';
import { LimitsService } from '../limits/limits.service.js';
import { UsageHistory } from '../limits/usage-history.js';
import { deploymentLabel, GatewayMetrics } from '../metrics/gateway-metrics.js';
import { DeploymentHealthTracker } from '../model-registry/deployment-health.js';
import { ModelRegistry } from '../model-registry/model-registry.js';
import { PrincipalsRepository } from '../principals/principals.repository.js';
import { PrincipalsService } from '../principals/principals.service.js';
import { SettingsRepository } from '../model-registry/settings.repository.js';
import { ModelFirstSeenRepository } from '../model-registry/model-first-seen.repository.js';
import { UpstreamPools } from '../providers/upstream-pools.js';
import { ResponsesRepository } from '../responses/responses.repository.js';
import { ResponsesService } from '../responses/responses.service.js';
import { unknownKeyRules } from '../keys/key-rules-check.js';
import { modelWarnings } from '../model-registry/model-warnings.js';
import { adminSavedSettings } from '../model-registry/admin-saved-settings.js';
import { sealStoredProviderKeys } from '../model-registry/provider-keys-at-rest.js';
import { SecretBox } from '../../config/secret-box.js';
import { RagAdmin } from '../rag/rag-admin.js';
import { ragStage } from '../rag/rag-stage.js';
import { RagService } from '../rag/rag.service.js';
import { GatewayEventBus } from '../traffic/event-bus.js';
import { TrafficLog } from '../traffic/traffic-log.js';
import { UsageNotice } from '../traffic/usage-notice.js';
import type { CacheAdmin } from '../cache/cache-admin.js';
import { createResponseCache } from '../cache/create-cache.js';
import type { ResponseCache } from '../cache/response-cache.js';
import { loadRequestTracing } from '../telemetry/load-tracing.js';
import type { RequestTracing } from '../telemetry/tracing.js';
import { GuardrailsSettings } from '../guardrails/guardrails-settings.js';
import { piiRestoreStage, piiScrubStage } from '../guardrails/pii/pii-stages.js';
import { contentPolicyStage } from '../guardrails/policy/content-policy-stage.js';
import { loadOidcClients, refreshTick } from '../sso/sso-setup.js';
import type { OidcClient } from '../sso/oidc-client.js';
import { SsoRepository } from '../sso/sso.repository.js';
import { SsoService } from '../sso/sso.service.js';
import { TokenCipher } from '../sso/token-cipher.js';
import { InFlightRequests } from './in-flight.js';
import {
  compilePolicyStages,
  policyStageNames,
  type OutputStages,
  type PolicyStage,
  type PolicyStages,
} from './stages/policy-stages.js';
import { GATEHOUSE_VERSION } from '../../version.js';

/** Longest wait at close for cut requests to be accounted. */
const IN_FLIGHT_GRACE_MS = 2000;
/**
 * What the stop's deadline (`server.shutdown_timeout_ms`) keeps for the close after the usage rows'
 * wait: their file and the database's close, before the deadline ends requests and the exit says 1.
 */
const CLOSE_RESERVE_MS = 500;

/** Every long-lived service of the gateway, built once per app and closed with it. */
export interface GatewayServices {
  readonly config: Config;
  readonly masterKey: string;
  /** Gatehouse's other credentials (store tokens, SSO client secrets): never forwarded as a caller's provider key. */
  readonly ownCredentials: readonly OwnCredential[];
  readonly registry: ModelRegistry;
  readonly keys: KeysService;
  /** Users and teams. */
  readonly principals: PrincipalsService;
  /** Rate limits and budgets (the limits stage, settlement, status). */
  readonly limits: LimitsService;
  readonly admin: AdminService;
  /** The admin API's users and teams. */
  readonly principalsAdmin: PrincipalsAdmin;
  readonly recorder: UsageRecorder;
  readonly usage: UsageRepository;
  readonly audit: AuditRepository;
  readonly prices: PriceTable;
  readonly metrics: GatewayMetrics;
  readonly traffic: TrafficLog;
  readonly bus: GatewayEventBus;
  readonly health: DeploymentHealthTracker;
  /** Kept Responses (`store: true`) and the conversations `previous_response_id` rebuilds. */
  readonly responses: ResponsesService;
  /** Single sign-on issuance of keys (`/sso/*`). */
  readonly sso: SsoService;
  /** The upstream connection pools. */
  readonly pools: UpstreamPools;
  /** PII and content-policy settings in force, and the rules of each request. */
  readonly guardrails: GuardrailsSettings;
  /** RAG collections, their index and retrieval (docs/rag.md). */
  readonly rag: RagService;
  /** The admin API's changes to collections and documents, each audited. */
  readonly ragAdmin: RagAdmin;
  /** Installed policy stages in the pipeline's order. */
  readonly policy: readonly PolicyStage[];
  /** Span names of `policy`, in the same order. */
  readonly policyNames: readonly string[];
  /** The response cache (its lookup is the `cacheLookup` stage); `cacheAdmin` its settings and purges. */
  readonly cache: ResponseCache;
  readonly cacheAdmin: CacheAdmin;
  /** Request spans, exported over OTLP; undefined when tracing is off. */
  readonly tracing: RequestTracing | undefined;
  readonly output: OutputStages;
  /** Requests begun and not yet accounted; closing waits for them. */
  readonly inFlight: InFlightRequests;
  /**
   * Writes what is pending (usage batch, key last-use times), stops timers and closes upstream
   * connections. Usage rows the database cannot take (a lock another process holds, a full disk) are
   * tried again until `usageDeadline` (a time in ms; by default one try), then kept in a file.
   */
  close(usageDeadline?: number): Promise<void>;
}

/** What the gateway's services are built from. */
export interface GatewayServicesOptions {
  readonly config: Config;
  readonly database: DatabaseHandle;
  /** The master key for /internal/* (compare with secretsEqual, never log it). */
  readonly masterKey: string;
  /** The store's tokens (compare with secretsEqual, never log them). */
  readonly storeTokens?: readonly string[];
  /** The gateway's metrics registry. */
  readonly registry: Registry;
  readonly policy?: PolicyStages;
  readonly output?: OutputStages;
  readonly env?: NodeJS.ProcessEnv;
  /** The store's new-revision notices, which store-backed RAG collections follow. */
  readonly revisions?: RevisionEvents;
  /** Request spans (loadRequestTracing); none: tracing off. */
  readonly tracing?: RequestTracing;
  /** The single sign-on providers' clients (loadOidcClients); none: no provider configured. */
  readonly oidcClients?: ReadonlyMap<string, OidcClient>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The gateway's services (the `gateway-services` plugin). */
    gateway: GatewayServices;
  }
}

/** What the log says when usage rows start waiting in memory, and when they are written after all. */
const HELD_ROWS_NOTICE = {
  locked: {
    waiting:
      'another process holds the database write lock: usage rows wait in memory until it is free (a crash meanwhile loses them)',
    written: 'the database write lock is free again: the usage rows that waited are written',
  },
  unwritable: {
    waiting:
      'the database cannot be written (a full disk, or a read-only file): usage rows wait in memory and are tried again every 2 s (a crash meanwhile loses them); /readyz reports usage_log unavailable',
    written: 'the database takes writes again: the usage rows that waited are written',
  },
} as const;

/** Builds the gateway's services over the shared database and metrics registry; ConfigError for unroutable deployments. */
export function createGatewayServices(
  options: GatewayServicesOptions,
  log: (message: string, error: unknown) => void,
  /** Expected failures worth a line (a refused sign-in): warn level, not error. */
  warn: (message: string, details: Record<string, unknown>) => void = log,
  /** What a start did on its own (keys encrypted): info level. */
  info: (message: string, details: Record<string, unknown>) => void = () => {},
): GatewayServices {
  const { sqlite, db } = options.database;
  // First: it refuses a configuration whose deployments cannot be routed (ConfigError), before any
  // connection or timer below exists that would then be left open.
  const dataDir = options.config.server.data_dir!;
  const settings = new SettingsRepository(db, new SecretBox(dataDir));
  const sealed = sealStoredProviderKeys(settings, dataDir);
  if (sealed > 0) info(`encrypted ${sealed} provider key(s) saved in plain text by an earlier version`, {});
  const registry = new ModelRegistry({
    config: options.config,
    repository: settings,
    firstSeen: new ModelFirstSeenRepository(db),
    env: options.env,
  });
  const oidcClients = options.oidcClients ?? new Map<string, OidcClient>();
  const batch = openBatchConnection(options.database);
  const keys = new KeysService(new KeysRepository(db, batch.sqlite), {
    lock: options.database.lock,
    onError: (error) => log('could not write key last-use times', error),
  });
  const usage = new UsageRepository(sqlite);
  const audit = new AuditRepository(sqlite);
  const inFlight = new InFlightRequests();
  const bus = new GatewayEventBus();
  const usageNotice = new UsageNotice(bus);
  const unwrittenLog = { info, warn, error: log };
  // Before the limits read the usage table to rebuild budgets: what an earlier stop could not write.
  importUnwrittenUsage(sqlite, dataDir, unwrittenLog);
  const recorder = new UsageRecorder(new UsageRepository(batch.sqlite), sqlite, usage, audit, {
    onError: (error, rows) => log(`could not write ${rows} usage rows`, error),
    onUnwritten: (rows) => keepUnwrittenUsage(dataDir, rows, unwrittenLog),
    lock: options.database.lock,
    onWritten: usageNotice.written,
    onHeld: ({ state, rows, cause }) => warn(HELD_ROWS_NOTICE[cause][state], { rows }),
  });
  const pools = new UpstreamPools();
  const principals = new PrincipalsService(new PrincipalsRepository(db));
  const prices = new PriceTable(registry.settings().pricing);
  // Prices are model settings: a save or a reset through the admin API prices the next request.
  registry.whenSettingsChange(() => prices.replace(registry.settings().pricing));
  const metrics = new GatewayMetrics(options.registry, () => registry.settings().allowed_models, {
    deploymentsOf: (model) => registry.deploymentsFor(model).map((deployment) => deploymentLabel(deployment, registry)),
    inFlight: () => inFlight.count,
    ...(options.tracing === undefined ? {} : { droppedSpans: () => options.tracing!.droppedSpans() }),
  });
  const limits = new LimitsService(
    new Limiter(new UsageHistory(sqlite, recorder)),
    principals,
    options.config.limits,
    prices,
    metrics,
    (model) => registry.deploymentsFor(model).map((deployment) => deployment.upstreamModel),
    { allowedModels: () => registry.settings().allowed_models, maxTokensCap: (model) => registry.maxTokensCap(model) },
  );
  const sso = new SsoService({
    clients: oidcClients,
    keys,
    principals,
    repository: new SsoRepository(db),
    // The key file is made only where single sign-on is configured.
    cipher: oidcClients.size > 0 ? TokenCipher.forDataDir(dataDir) : TokenCipher.ephemeral(),
    audit,
    bus,
    loginTimeoutMs: options.config.sso.login_timeout_seconds * 1000,
    log: (message, details) => warn(message, details ?? {}),
  });
  // Before the first request: keys of sessions nothing can check any more stop working now.
  const orphaned = sso.sessions.endUnconfigured();
  if (orphaned > 0)
    warn(`ended ${orphaned} SSO session(s) of providers no longer configured; their keys are revoked`, {});
  const tick = refreshTick(options.config);
  const refresher =
    tick === undefined
      ? undefined
      : setInterval(
          () => void sso.sessions.refreshDue().catch((error: unknown) => log('sso refresh round failed', error)),
          tick,
        );
  refresher?.unref();
  const rag = new RagService({
    config: options.config,
    sqlite,
    registry,
    pools,
    metricsRegistry: options.registry,
    revisions: options.revisions,
    log,
    // Indexing and admin searches book their embedding calls as the gateway's own usage.
    usage: { recorder, prices },
  });
  // Key rules that can match nothing: said once at start (a fresh data folder has no keys yet).
  for (const problem of unknownKeyRules(options.config, keys)) warn(`configuration: ${problem}`, {});
  for (const notice of adminSavedSettings(registry, settings)) warn(`configuration: ${notice}`, {});
  for (const problem of modelWarnings(registry, options.config, options.env ?? process.env))
    warn(`configuration: ${problem}`, {});
  const { cache, admin: cacheAdmin } = createResponseCache({
    config: options.config,
    repository: settings,
    registry,
    metrics,
    audit,
    bus,
    warn: (message) => warn(message, {}),
    names: { keys, principals },
  });
  const { cooldown_after_failures: afterFailures, cooldown_ms: cooldownMs } = options.config.gateway;
  const health = new DeploymentHealthTracker(Date.now, { afterFailures, ms: cooldownMs }, { warn, info });
  // The built-in stages; options (tests, embedders) may fill or replace slots.
  const policy: PolicyStages = {
    rateLimit: (ctx) => limits.admit(ctx),
    contentPolicy: contentPolicyStage,
    piiScrub: piiScrubStage,
    rag: ragStage(rag),
    cacheLookup: cache.lookup,
    ...options.policy,
  };
  const tracing = options.tracing;
  const responses = new ResponsesService(new ResponsesRepository(db));
  // One server per data folder: a response still in progress at start was cut by a crash.
  const interrupted = responses.failInterrupted();
  if (interrupted > 0)
    warn(`marked ${interrupted} kept response(s) failed: the gateway stopped before they were complete`, {});
  return {
    config: options.config,
    masterKey: options.masterKey,
    ownCredentials: ownCredentials(options),
    registry,
    keys,
    principals,
    limits,
    admin: new AdminService(keys, principals, limits, registry, health, audit, bus),
    principalsAdmin: new PrincipalsAdmin(principals, keys, limits, usage, recorder, audit, bus, { responses, cache }),
    recorder,
    usage,
    audit,
    prices,
    metrics,
    traffic: new TrafficLog(options.config.gateway.traffic_buffer, bus),
    bus,
    health,
    responses,
    sso,
    pools,
    guardrails: new GuardrailsSettings(options.config, settings),
    rag,
    ragAdmin: new RagAdmin(rag, audit, bus, keys),
    policy: compilePolicyStages(policy),
    policyNames: policyStageNames(policy),
    cache,
    cacheAdmin,
    tracing,
    output: { piiRestore: piiRestoreStage, ...options.output },
    inFlight,
    close: async (usageDeadline?: number) => {
      // Requests whose connections were cut are accounted as their responses close, which may come
      // just after the server reports closed; a response that never closes does not hold shutdown.
      await inFlight.settled(IN_FLIGHT_GRACE_MS);
      clearInterval(refresher);
      await rag.close();
      await recorder.close(usageDeadline);
      usageNotice.close();
      keys.close();
      batch.close();
      await Promise.all([pools.close(), tracing?.shutdown()]);
    },
  };
}

/** Decorates the app with `gateway` (its services) and closes them with the app. */
export const gatewayServicesPlugin = fp<GatewayServicesOptions>(
  async (app, options) => {
    const log = (message: string, error: unknown): void => app.log.error({ err: error }, message);
    // First: a provider whose secret is not in the environment stops the start, before anything opens.
    const oidcClients = await loadOidcClients(options.config, options.env ?? process.env);
    const tracing = await loadRequestTracing(options.config.telemetry, GATEHOUSE_VERSION, (message) =>
      app.log.warn(message),
    );
    let services: GatewayServices;
    try {
      services = createGatewayServices(
        { ...options, tracing, oidcClients },
        log,
        (message, details) => app.log.warn(details, message),
        (message, details) => app.log.info(details, message),
      );
    } catch (error) {
      await tracing?.shutdown();
      throw error;
    }
    app.decorate('gateway', services);
    // The stop's deadline counts from the close's start, before in-flight requests finish; usage rows
    // wait for the database until a little before it, leaving the rest of the close time to end.
    let closeAskedAt = Date.now();
    app.addHook('preClose', async () => {
      closeAskedAt = Date.now();
    });
    const usageWaitMs = Math.max(0, options.config.server.shutdown_timeout_ms - CLOSE_RESERVE_MS);
    app.addHook('onClose', () => services.close(closeAskedAt + usageWaitMs));
  },
  { name: 'gateway-services', fastify: '5.x' },
);
