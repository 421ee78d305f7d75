import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config/schema.js';
import type { DatabaseHandle } from '../db/connection.js';
import { createBaseApp } from '../http/base-app.js';
import { allowOrigins } from '../http/cors.js';
import { databaseReadiness, registerHealthRoutes } from '../http/health.js';
import { registerHttpMetrics } from '../http/http-metrics.js';
import { createMetricsRegistry, registerMetricsRoute } from '../http/metrics.js';
import type { RevisionEvents } from './engine/revision-events.js';
import {
  authenticateStoreToken,
  authorizeStoreRequest,
  refuseMissingVerb,
  type StoreTokenGrant,
  type StoreVerb,
} from './store-auth.js';
import { storeRoutes } from './routes/index.js';
import { registerIdempotencyKeys } from './idempotency-keys.js';
import { refuseUnsupportedPreconditions } from './unsupported-preconditions.js';
import type { TlsCredentials } from '../config/tls-files.js';

/** Route config of store routes: which permission the route needs (`any`: a valid token, whatever it grants). */
export interface StoreRouteConfig {
  readonly storeAuth?: { readonly verb: StoreVerb | 'any' };
}

/** What the store app needs from the process. */
export interface StoreAppContext {
  readonly config: Config;
  readonly database: DatabaseHandle;
  /** Resolved tokens; empty with auth enabled means every authenticated request is refused. */
  readonly tokens: readonly StoreTokenGrant[];
  /** Browser origins allowed to call the store (the UI's). */
  readonly allowedOrigin?: (origin: string) => boolean;
  /** Told about every new revision (the gateway's RAG collections follow branches with it). */
  readonly revisions?: RevisionEvents;
  /** `server.tls`, read: HTTPS instead of HTTP. */
  readonly tls?: TlsCredentials;
}

declare module 'fastify' {
  interface FastifyRequest {
    storeGrant?: StoreTokenGrant;
  }
}

const PUBLIC_ROUTES = new Set(['/healthz', '/readyz']);

/** The permission a route needs (`read` unless it says otherwise). */
function routeVerb(request: FastifyRequest): StoreVerb | 'any' {
  return (request.routeOptions.config as StoreRouteConfig | undefined)?.storeAuth?.verb ?? 'read';
}

/** Builds the versioned document store app (not yet listening). */
export async function buildStoreApp(ctx: StoreAppContext): Promise<FastifyInstance> {
  const { config, database } = ctx;
  const app = createBaseApp({
    name: 'store',
    logLevel: config.server.log_level,
    bodyLimit: config.store.limits.body_bytes,
    lock: database.lock,
    tls: ctx.tls,
    // Documents, keys, names and messages are all kept as sent.
    storesText: () => true,
  });
  const plain = app as unknown as FastifyInstance;
  const registry = createMetricsRegistry();
  // The store's routes answer these three methods; a preflight promises no other.
  if (ctx.allowedOrigin) allowOrigins(plain, ctx.allowedOrigin, 'GET, POST, DELETE');
  registerHttpMetrics(plain, registry, 'svc');

  const authEnabled = config.store.auth.enabled;
  const needsToken = (url: string | undefined): boolean =>
    url !== undefined && !PUBLIC_ROUTES.has(url) && !(url === '/metrics' && config.store.metrics_public);

  // Authenticate before the body is parsed, so a stranger learns nothing from validation errors.
  app.addHook('onRequest', async (request) => {
    if (!authEnabled || request.method === 'OPTIONS' || !needsToken(request.routeOptions.url)) return;
    if (request.is404) return;
    const grant = authenticateStoreToken(request, ctx.tokens);
    request.storeGrant = grant;
    // The permission the route needs is known before the body: a token without it is refused now,
    // before its body is read (the namespace, which may be in the body, is checked once it is).
    const verb = routeVerb(request);
    if (verb !== 'any') refuseMissingVerb(grant, verb);
  });
  app.addHook('onRequest', async (request) => refuseUnsupportedPreconditions(request));
  registerIdempotencyKeys(plain);
  // Authorise once the body is parsed: grants can be limited to namespaces named in the body.
  app.addHook('preHandler', async (request) => {
    const grant = request.storeGrant;
    const verb = routeVerb(request);
    if (!grant || verb === 'any') return;
    authorizeStoreRequest(request, grant, verb);
  });

  registerHealthRoutes(plain, { liveness: 'text', checks: { database: databaseReadiness(plain, database) } });
  registerMetricsRoute(plain, registry);
  await app.register(storeRoutes, { database, registry, limits: config.store.limits, events: ctx.revisions });
  return plain;
}
