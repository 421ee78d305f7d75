import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestIdFor } from './request-id.js';
import { envelopeForRequest, installErrorHandling } from './error-handler.js';
import { logsEveryRequest, REQUEST_ID_LOG_LABEL, RequestLogController, serverLogger } from './logger.js';
import { closeQuietConnectionsOnClose } from './graceful-close.js';
import { answerFrameworkError, clientErrorHandler, connectRequestHandler } from './client-errors.js';
import { CONNECTION_DEFAULTS, createConnectionControls } from './connection-settings.js';
import { HostAllowList, hostProblem } from './host-check.js';
import { LINGER_MS } from './linger-close.js';
import { installJsonBody, type StoresText } from './json-body.js';
import { LargeBodyGate } from './large-body-gate.js';
import { queryEscapeProblem } from './query-escapes.js';
import { AppError } from './errors.js';
import { AuthFailureDelay, isCredentialRefusal } from './auth-failure-delay.js';
import type { DatabaseLockWatch } from '../db/lock-watch.js';
import type { TlsCredentials } from '../config/tls-files.js';

/**
 * Every schema is zod. Without these factories Fastify loads its default Ajv validator and
 * fast-json-stringify compilers, some 240 modules and 5 to 8 MB of resident memory that no route uses.
 * Fastify types the factories for Ajv's schemas; they are handed zod's, as `setValidatorCompiler` is.
 */
const ZOD_COMPILERS = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => serializerCompiler,
} as unknown as NonNullable<FastifyServerOptions['schemaController']>['compilersFactory'];

/** Options shared by both services' apps. */
export interface BaseAppOptions {
  readonly name: string;
  readonly logLevel: string;
  readonly bodyLimit: number;
  /** The database's lock watch, told when an answer was a locked database's 503. */
  readonly lock?: DatabaseLockWatch;
  /** `server.tls`, read: the app answers HTTPS instead of HTTP. */
  readonly tls?: TlsCredentials;
  /** The requests whose text is stored as sent: their bodies must be well-formed Unicode. */
  readonly storesText?: StoresText;
}

/** A TLS handshake on a LAN takes milliseconds; Node's default lets a silent client hold a socket two minutes. */
const TLS_HANDSHAKE_TIMEOUT_MS = 10_000;

/**
 * Node's HTTP server options, for HTTPS when `tls` is given. The HTTPS server has every setting of
 * the HTTP one that the apps use (timeouts, maxConnections, the client error handler): the apps keep
 * the HTTP server's type, as the cast says, rather than every route carrying two.
 */
function serverOptions(tls: TlsCredentials | undefined): { http: { requireHostHeader: false } } {
  // The Host check answers a missing Host in the shared shape; Node's own check answers a bare 400.
  if (tls === undefined) return { http: { requireHostHeader: false } };
  const https = { ...tls, requireHostHeader: false, handshakeTimeout: TLS_HANDSHAKE_TIMEOUT_MS };
  return { https } as unknown as { http: { requireHostHeader: false } };
}

/**
 * A Fastify app with zod validation, request ids on every response, the shared error handling (parser
 * errors included), a Host check (and one for credentials sent twice), refused credentials slowed once
 * they repeat, and connection limits (`app.connections.configure` before listening).
 */
export function createBaseApp(options: BaseAppOptions) {
  // A client still sending a body after its answer may send a few times the limit before it is cut.
  const linger = { maxBytes: 4 * options.bodyLimit, maxMs: LINGER_MS };
  const logger = serverLogger(options.logLevel, options.name);
  const fastifyLogs = logsEveryRequest(options.logLevel);
  const app = Fastify({
    ...(fastifyLogs ? { loggerInstance: logger } : {}),
    genReqId: requestIdFor,
    schemaController: { compilersFactory: ZOD_COMPILERS },
    requestIdHeader: false,
    logController: new RequestLogController({
      requestIdLogLabel: REQUEST_ID_LOG_LABEL,
      disableRequestLogging: !fastifyLogs,
    }),
    bodyLimit: options.bodyLimit,
    // Closing must not wait on idle keep-alive sockets, only on requests in flight.
    forceCloseConnections: 'idle',
    // A request arriving while closing gets the 503 of the onRequest hook below, in the shared shape.
    return503OnClosing: false,
    ...serverOptions(options.tls),
    clientErrorHandler: clientErrorHandler(linger),
    frameworkErrors: answerFrameworkError,
  }).withTypeProvider<ZodTypeProvider>();
  // Without a logger of its own (see logsEveryRequest), Fastify's `log` is a no-op: the app and its
  // plugins log through this one, which every encapsulated instance inherits.
  if (!fastifyLogs && logger !== undefined) app.log = logger;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Every API body is JSON: a text/plain body must get the content-type error, not reach the
  // schema as a string ("request body must be an object").
  app.removeContentTypeParser('text/plain');
  installJsonBody(app as unknown as FastifyInstance, options.storesText);
  app.server.on('connect', connectRequestHandler(linger));
  const hosts = new HostAllowList();
  const connections = closeQuietConnectionsOnClose(app.server);
  const largeBodies = new LargeBodyGate(() => app.server.requestTimeout);
  // One callback-style hook for what every request needs first: its id on the answer, then the
  // shutdown and Host checks before anything else runs.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // Anthropic's SDKs read the id from `request-id`, as Anthropic sends it, and say so in their errors.
    if (speaksAnthropic(request)) reply.header('request-id', request.id);
    if (connections.closing) return done(shuttingDown() as unknown as FastifyError);
    const problem = hostProblem(request, hosts) ?? queryEscapeProblem(request.url);
    if (problem) done(problem as FastifyError);
    else done();
  });
  // A turn for a large body before it is read: after every onRequest hook, so a request its
  // credentials refuse (or a token without the route's permission) never takes one from the others.
  app.addHook('preParsing', (request, reply, payload, done) => {
    if (!LargeBodyGate.applies(request)) done(null, payload);
    else largeBodies.admit(request, reply, (error) => done(error ?? null, payload));
  });
  // Refused credentials (401s) answered at a bounded rate once they repeat: guessing a typed-in secret
  // stays slow, in parallel too. An onError hook, so answers without an error, every valid request
  // among them, pass no check.
  const failures = new AuthFailureDelay(() => app.log);
  app.addHook('onError', (request, reply, error, done) => {
    if (isCredentialRefusal(error)) failures.hold(request, reply, done);
    else done();
  });
  const controls = createConnectionControls(app.server, hosts);
  controls.configure(CONNECTION_DEFAULTS);
  app.decorate('connections', controls);
  installErrorHandling(app as unknown as FastifyInstance, linger, options.lock);
  app.addHook('preClose', (done) => {
    connections.beginClosing();
    failures.releaseAll();
    done();
  });
  return app;
}

/** A request from an Anthropic client: one that sends `anthropic-version`, as the SDKs do, or any under /v1/messages. */
function speaksAnthropic(request: FastifyRequest): boolean {
  return envelopeForRequest(request) === 'anthropic';
}

/** A request that arrived on a kept-alive connection after shutdown began (its socket closes after the answer). */
const shuttingDown = (): AppError =>
  new AppError('service_unavailable', 'the server is shutting down; send the request again once it is back');

/** The typed app returned by {@link createBaseApp}. */
export type BaseApp = ReturnType<typeof createBaseApp>;
