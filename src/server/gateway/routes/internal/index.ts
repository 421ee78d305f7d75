import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { requireMasterKey } from '../../admin/master-key.js';
import { queryParams } from '../../../../shared/query-params.js';
import { httpErrorFor } from '../../../http/errors.js';
import { GatewayError } from '../../gateway-error.js';
import { apiKeysRoutes } from './api-keys.routes.js';
import { cacheRoutes } from './cache.routes.js';
import { deploymentsRoutes } from './deployments.routes.js';
import { guardrailsRoutes } from './guardrails.routes.js';
import { adminModelsRoutes } from './models.routes.js';
import { principalsRoutes } from './principals.routes.js';
import { ragRoutes } from './rag.routes.js';
import { internalSsoRoutes } from './sso.routes.js';
import { trafficRoutes } from './traffic.routes.js';
import { usageRoutes } from './usage.routes.js';

const noQueryParams = queryParams({});

/**
 * The body of a DELETE that takes none: nothing, or an empty object. A field sent with it (`{"force":
 * true}`) is refused, naming it, rather than ignored while the caller believes it had an effect.
 */
const noDeleteBody = z.strictObject({}).nullish();

/** The admin API under `/internal/*`: master key only, one plugin per resource. */
export const internalRoutes: FastifyPluginAsync = async (app) => {
  requireMasterKey(app, app.gateway.masterKey, app.gateway.metrics.adminAuthFailures);
  // The services' domain errors become HTTP errors here, at the edge; the shared handler answers them.
  app.setErrorHandler((error) => {
    throw error instanceof GatewayError ? httpErrorFor(error.kind, error.message) : error;
  });
  // A route that declares no query parameters refuses every one, naming it, as the listings refuse
  // unknown ones: `GET /internal/teams?limit=10` answering every team would read as one page of ten.
  app.addHook('onRoute', (route) => {
    if (!route.schema?.querystring) route.schema = { ...route.schema, querystring: noQueryParams };
    if (route.method === 'DELETE' && !route.schema.body) route.schema = { ...route.schema, body: noDeleteBody };
  });
  await app.register(apiKeysRoutes);
  await app.register(principalsRoutes);
  await app.register(adminModelsRoutes);
  await app.register(deploymentsRoutes);
  await app.register(usageRoutes);
  await app.register(trafficRoutes);
  await app.register(ragRoutes);
  await app.register(guardrailsRoutes);
  await app.register(internalSsoRoutes);
  await app.register(cacheRoutes);
};
