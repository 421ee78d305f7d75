import type { FastifyPluginAsync } from 'fastify';
import type { GatewayContext } from '../gateway-context.js';
import { formatValidatorCompiler } from '../pipeline/format-validator.js';
import { createGatewayServices, type ServiceOptions } from '../pipeline/gateway-services.js';
import { providerLayer } from '../pipeline/provider-adapter.js';
import { internalRoutes } from './internal/index.js';
import { lazyChildLoggerFactory } from './lazy-request-logger.js';
import { v1Routes } from './v1.js';

/** Registers the gateway's public (/v1/*) and admin (/internal/*) routes over one set of services. */
export const gatewayRoutes: FastifyPluginAsync<GatewayContext & Partial<ServiceOptions>> = async (app, ctx) => {
  const services = createGatewayServices(ctx, {
    providers: ctx.providers ?? providerLayer,
    policy: ctx.policy,
    output: ctx.output,
    env: ctx.env,
    log: (message, error) => app.log.error({ err: error }, message),
  });
  // Encapsulated: only the gateway's routes get the field-naming validator and the lazy request logger.
  app.setValidatorCompiler(formatValidatorCompiler);
  app.setChildLoggerFactory(lazyChildLoggerFactory);
  app.addHook('onClose', (_instance, done) => {
    services.close();
    done();
  });
  await app.register(v1Routes, { services });
  await app.register(internalRoutes, { services, prefix: '/internal' });
};
