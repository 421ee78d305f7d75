import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  deploymentHealthListSchema,
  deploymentListSchema,
  deploymentsUpdateSchema,
  deploymentTestResultSchema,
  deploymentTestSchema,
} from '../../../../shared/gateway-api.js';
import { DeploymentTester } from '../../admin/deployment-test.service.js';
import { checkIfMatch, tagged } from './settings-etag.js';

/**
 * `/internal/deployments` (list, replace; with an ETag and If-Match), `/internal/deployments/health`
 * and `/internal/deployments/test` (one real call to a deployment's provider, saved or not).
 */
export const deploymentsRoutes: FastifyPluginAsync = async (app) => {
  const services = app.gateway;
  const admin = services.admin;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tester = new DeploymentTester(services);
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
  typed.post(
    '/deployments/test',
    { schema: { body: deploymentTestSchema, response: { 200: deploymentTestResultSchema } } },
    async (request) => tester.test(request.body, { requestId: request.id }),
  );
};
