import type { FastifyError, FastifyInstance } from 'fastify';
import { toErrorResponse } from '../../http/error-handler.js';
import { newRequestContext } from '../pipeline/request-context.js';
import { authenticate, type AuthDeps } from '../pipeline/stages/authenticate.js';
import { finishRequest } from '../pipeline/stages/finish.js';
import type { GatewayServices } from '../pipeline/gateway-services.js';
import type { V1RouteConfig } from './route-options.js';

/**
 * The pipeline's first and last stages as hooks of the /v1 routes: the context and authentication
 * on arrival (before the body is parsed), the error type on failure, and the finishing stage once the
 * reply is sent — so every path, validation errors included, is accounted exactly once. Callback-style
 * hooks: an async hook costs a promise per request.
 */
export function installV1Hooks(app: FastifyInstance, services: GatewayServices): void {
  const auth: AuthDeps = { keys: services.keys, masterKey: services.masterKey, allowPassthroughKeys: services.config.allow_passthrough_keys };
  app.decorateRequest('gatewayRequest', null);
  app.addHook('onRequest', (request, _reply, done) => {
    const endpoint = (request.routeOptions.config as unknown as V1RouteConfig).endpoint;
    const ctx = newRequestContext(request.id, endpoint, request.method, request.routeOptions.url ?? request.url);
    request.gatewayRequest = ctx;
    try {
      authenticate(ctx, request, auth);
    } catch (error) {
      done(error as FastifyError);
      return;
    }
    done();
  });
  app.addHook('onError', (request, _reply, error, done) => {
    const ctx = request.gatewayRequest;
    if (ctx) {
      const { body } = toErrorResponse(error, request);
      ctx.errorType = body.error.type;
      ctx.responseBody = body;
    }
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const ctx = request.gatewayRequest;
    if (ctx) finishRequest(ctx, reply.statusCode, services);
    done();
  });
}
