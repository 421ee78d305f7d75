import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestIdFor } from './request-id.js';
import { installErrorHandling } from './error-handler.js';
import { loggerOptions } from './logger.js';
import { closeQuietConnectionsOnClose } from './graceful-close.js';
import { installJsonBody } from './json-body.js';

/** Options shared by both services' apps. */
export interface BaseAppOptions {
  readonly name: string;
  readonly logLevel: string;
  readonly bodyLimit: number;
}

/** A Fastify app with zod validation, request ids on every response, and the shared error handling. */
export function createBaseApp(options: BaseAppOptions) {
  const app = Fastify({
    logger: loggerOptions(options.logLevel, options.name),
    genReqId: requestIdFor,
    requestIdHeader: false,
    logController: new LogController({
      requestIdLogLabel: 'requestId',
      // Per-request lines only when debugging: they cost time on the hot path.
      disableRequestLogging: options.logLevel !== 'debug' && options.logLevel !== 'trace',
    }),
    bodyLimit: options.bodyLimit,
    // Closing must not wait on idle keep-alive sockets, only on requests in flight.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Every API body is JSON: a text/plain body must get the content-type error, not reach the
  // schema as a string ("request body must be an object").
  app.removeContentTypeParser('text/plain');
  installJsonBody(app as unknown as FastifyInstance);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  installErrorHandling(app as unknown as FastifyInstance);
  const connections = closeQuietConnectionsOnClose(app.server);
  app.addHook('preClose', (done) => {
    connections.beginClosing();
    done();
  });
  return app;
}

/** The typed app returned by {@link createBaseApp}. */
export type BaseApp = ReturnType<typeof createBaseApp>;
