import type { FastifyError, FastifyInstance, onRequestHookHandler } from 'fastify';
import { toErrorResponse } from '../../http/error-handler.js';
import { newRequestContext, type Endpoint } from '../pipeline/request-context.js';
import { authenticate, type AuthDeps } from '../pipeline/stages/authenticate.js';
import { finishRequest } from '../pipeline/stages/finish.js';
import type { GatewayServices } from '../pipeline/gateway-services.js';

/**
 * The pipeline's first stage as a route-level hook: the request's context and authentication, on
 * arrival, before the body is parsed (a caller without a valid key learns nothing from validation
 * errors). Bound per route so the hot path never builds `request.routeOptions` (a fresh object on
 * every access). Callback style: an async hook costs a promise per request.
 */
export function startPipeline(endpoint: Endpoint, path: string, services: GatewayServices): onRequestHookHandler {
  const auth: AuthDeps = {
    keys: services.keys,
    masterKey: services.masterKey,
    allowPassthroughKeys: services.config.allow_passthrough_keys,
  };
  return (request, _reply, done) => {
    const ctx = newRequestContext(request.id, endpoint, request.method, path);
    request.gatewayRequest = ctx;
    try {
      authenticate(ctx, request, auth);
    } catch (error) {
      done(error as FastifyError);
      return;
    }
    done();
  };
}

/**
 * The error type on failure and the finishing stage once the reply is sent, for every /v1 route —
 * so every path, validation errors included, is accounted exactly once.
 */
export function installV1Hooks(app: FastifyInstance, services: GatewayServices): void {
  app.decorateRequest('gatewayRequest', null);
  app.addHook('onError', (request, _reply, error, done) => {
    const ctx = request.gatewayRequest;
    if (ctx) {
      const { body } = toErrorResponse(error, request);
      ctx.errorType = body.error.type;
      ctx.responseBody = { kind: 'value', value: body };
    }
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const ctx = request.gatewayRequest;
    if (ctx) finishRequest(ctx, reply.statusCode, services);
    done();
  });
}
