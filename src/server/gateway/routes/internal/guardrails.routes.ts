import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  contentPolicySettingsUpdateSchema,
  contentPolicySettingsViewSchema,
  piiSettingsUpdateSchema,
  piiSettingsViewSchema,
} from '../../../../shared/guardrails-api.js';
import { GuardrailsAdmin } from '../../guardrails/guardrails-admin.js';

/** `/internal/pii` and `/internal/content-policy`: read and change the settings in force. */
export const guardrailsRoutes: FastifyPluginAsync = async (app) => {
  const services = app.gateway;
  const admin = new GuardrailsAdmin(
    services.guardrails,
    services.keys,
    services.registry,
    services.audit,
    services.bus,
  );
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get('/pii', { schema: { response: { 200: piiSettingsViewSchema } } }, async () => admin.pii());
  typed.put(
    '/pii',
    { schema: { body: piiSettingsUpdateSchema, response: { 200: piiSettingsViewSchema } } },
    async (request) => admin.updatePii(request.body, { requestId: request.id }),
  );
  typed.get('/content-policy', { schema: { response: { 200: contentPolicySettingsViewSchema } } }, async () =>
    admin.contentPolicy(),
  );
  typed.put(
    '/content-policy',
    { schema: { body: contentPolicySettingsUpdateSchema, response: { 200: contentPolicySettingsViewSchema } } },
    async (request) => admin.updateContentPolicy(request.body, { requestId: request.id }),
  );
};
