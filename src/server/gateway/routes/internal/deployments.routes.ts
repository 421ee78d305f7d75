import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  deploymentHealthListSchema,
  deploymentListSchema,
  deploymentsUpdateSchema,
} from '../../../../shared/gateway-api.js';
import { checkIfMatch, tagged } from './settings-etag.js';

/** `/internal/deployments` (list, replace; with an ETag and If-Match) and `/internal/deployments/health`. */
export const deploymentsRoutes: FastifyPluginAsync = async (app) => {
  const services = app.gateway;
  const admin = services.admin;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get('/deployments', { schema: { response: { 200: deploymentListSchema } } }, async (_request, reply) =>
    tagged(reply, admin.deployments()),
  );
  typed.put(
    '/deployments',
    { schema: { body: deploymentsUpdateSchema, response: { 200: deploymentListSchema } } },
    async (request, reply) => {
      checkIfMatch(request, admin.deployments(), 'deployments');
      return tagged(reply, await admin.replaceDeployments(request.body, { requestId: request.id }));
    },
  );
  typed.get('/deployments/health', { schema: { response: { 200: deploymentHealthListSchema } } }, async () => ({
    data: services.health.report(services.registry.routableDeployments()),
  }));
};
