import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  deploymentHealthListSchema,
  deploymentListSchema,
  deploymentsUpdateSchema,
} from '../../../../shared/gateway-api.js';

/** `/internal/deployments` (list, replace) and `/internal/deployments/health`. */
export const deploymentsRoutes: FastifyPluginAsync = async (app) => {
  const services = app.gateway;
  const admin = services.admin;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get('/deployments', { schema: { response: { 200: deploymentListSchema } } }, async () => admin.deployments());
  typed.put(
    '/deployments',
    { schema: { body: deploymentsUpdateSchema, response: { 200: deploymentListSchema } } },
    async (request) => admin.replaceDeployments(request.body, { requestId: request.id }),
  );
  typed.get('/deployments/health', { schema: { response: { 200: deploymentHealthListSchema } } }, async () => ({
    data: services.health.report(services.registry.routableDeployments()),
  }));
};
