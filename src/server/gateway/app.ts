import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/schema.js';
import type { DatabaseHandle } from '../db/connection.js';
import { createBaseApp } from '../http/base-app.js';
import type { RevisionEvents } from '../store/engine/revision-events.js';
import { allowApiOrigins } from '../http/api-cors.js';
import { databaseReadiness, registerHealthRoutes } from '../http/health.js';
import { createMetricsRegistry, registerMetricsRoute } from '../http/metrics.js';
import { registerUi, type UiBootstrapSource } from '../http/ui.js';
import { gatewayServicesPlugin } from './pipeline/gateway-services.js';
import { requireMetricsCredential } from './metrics/metrics-access.js';
import { readDeploymentHealth } from './metrics/deployment-health-metrics.js';
import { responsesRetentionPlugin } from './responses/responses-retention-plugin.js';
import { gatewayRoutes } from './routes/index.js';
import type { TlsCredentials } from '../config/tls-files.js';

/** What the gateway app needs from the process. */
export interface GatewayAppContext {
  readonly config: Config;
  readonly database: DatabaseHandle;
  readonly masterKey: string;
  /** The store's tokens: refused as a caller's provider key (compare with secretsEqual, never log them). */
  readonly storeTokens?: readonly string[];
  /** The built renderer to serve at /ui, when there is one. */
  readonly uiDir?: string;
  readonly uiBootstrap?: UiBootstrapSource;
  /** Where secrets named in the configuration (`client_secret_env`) are read. */
  readonly env?: NodeJS.ProcessEnv;
  /** The store's new-revision notices (RAG collections follow store branches). */
  readonly revisions?: RevisionEvents;
  /** `server.tls`, read: HTTPS instead of HTTP. */
  readonly tls?: TlsCredentials;
}

/** Builds the model gateway app (not yet listening). */
export async function buildGatewayApp(ctx: GatewayAppContext): Promise<FastifyInstance> {
  const { config, database } = ctx;
  const app = createBaseApp({
    name: 'gateway',
    logLevel: config.server.log_level,
    bodyLimit: config.gateway.body_limit_bytes,
    lock: database.lock,
    tls: ctx.tls,
    // The admin API and sign-in keep what they are sent; a model request's text goes to its provider as sent.
    storesText: (request) => !request.url.startsWith('/v1/'),
  });
  const plain = app as unknown as FastifyInstance;
  const registry = createMetricsRegistry();
  registerHealthRoutes(plain, {
    liveness: 'json',
    // The RAG index (FTS5 over chunks) is the gateway's vector store; the services exist by the time /readyz answers.
    checks: {
      database: databaseReadiness(plain, database),
      rag_index: () => plain.gateway.rag.ready(),
      // Usage rows a full disk refused wait in memory: the requests still succeed, their record does not.
      usage_log: () => plain.gateway.recorder.writable,
    },
  });
  requireMetricsCredential(plain, config, ctx.masterKey);
  registerMetricsRoute(plain, registry);
  allowApiOrigins(plain, config.server.cors_origins);
  if (config.server.ui && ctx.uiBootstrap) await registerUi(plain, { dir: ctx.uiDir, bootstrap: ctx.uiBootstrap });
  await app.register(gatewayServicesPlugin, {
    config,
    database,
    masterKey: ctx.masterKey,
    storeTokens: ctx.storeTokens,
    registry,
    env: ctx.env,
    revisions: ctx.revisions,
  });
  readDeploymentHealth(registry, plain.gateway);
  await app.register(responsesRetentionPlugin, { database });
  await app.register(gatewayRoutes);
  return plain;
}
