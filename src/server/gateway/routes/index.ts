import type { FastifyPluginAsync } from 'fastify';
import { formatValidatorCompiler } from '../pipeline/format-validator.js';
import { internalRoutes } from './internal/index.js';
import { ragKeyCollectionsRoutes } from './rag-key-collections.routes.js';
import { ssoRoutes } from './sso/sso.routes.js';
import { v1Routes } from './v1.js';

/**
 * The gateway's public (/v1/*) and admin (/internal/*) routes, over the services the
 * `gateway-services` plugin decorated the app with.
 */
export const gatewayRoutes: FastifyPluginAsync = async (app) => {
  // Encapsulated: only the gateway's routes get the field-naming validator.
  app.setValidatorCompiler(formatValidatorCompiler);
  await app.register(v1Routes);
  await app.register(ragKeyCollectionsRoutes);
  await app.register(internalRoutes, { prefix: '/internal' });
  await app.register(ssoRoutes, { prefix: '/sso' });
};
