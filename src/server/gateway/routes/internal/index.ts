import type { FastifyPluginAsync } from 'fastify';
import { AdminService } from '../../admin/admin.service.js';
import { requireMasterKey } from '../../admin/master-key.js';
import type { GatewayRouteOptions } from '../route-options.js';
import { apiKeysRoutes } from './api-keys.routes.js';
import { deploymentsRoutes } from './deployments.routes.js';
import { adminModelsRoutes } from './models.routes.js';
import { trafficRoutes } from './traffic.routes.js';
import { usageRoutes } from './usage.routes.js';

/** The admin API under `/internal/*`: master key only, one plugin per resource. */
export const internalRoutes: FastifyPluginAsync<GatewayRouteOptions> = async (app, { services }) => {
  requireMasterKey(app, services.masterKey);
  const admin = new AdminService(services.keys, services.registry, services.audit, services.bus);
  const options = { services, admin };
  await app.register(apiKeysRoutes, options);
  await app.register(adminModelsRoutes, options);
  await app.register(deploymentsRoutes, options);
  await app.register(usageRoutes, options);
  await app.register(trafficRoutes, options);
};
