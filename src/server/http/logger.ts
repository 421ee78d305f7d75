import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import { pino } from 'pino';

/** Header and body paths that may hold secrets; pino replaces them before anything is written. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  '*.apiKey',
  '*.api_key',
  '*.token',
  '*.masterKey',
];

/** Pino options: structured JSON at the given level, secrets redacted. */
function loggerOptions(level: string, name: string): pino.LoggerOptions {
  return {
    level,
    name,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      // Given serializers replace pino's defaults, its error serializer among them.
      err: pino.stdSerializers.err,
      // Only what identifies the request: never headers or bodies, which can hold keys and prompts.
      req: (req: { method: string; url: string; id: string }) => ({
        method: req.method,
        url: req.url.split('?')[0],
        id: req.id,
      }),
    },
  };
}

/** The field naming the request on every line it logs, Fastify's own lines and requestLog's alike. */
export const REQUEST_ID_LOG_LABEL = 'requestId';

/** A server's logger at the given level, or none when the level is `silent`. */
export function serverLogger(level: string, name: string): FastifyBaseLogger | undefined {
  return level === 'silent' ? undefined : pino(loggerOptions(level, name));
}

/**
 * Whether Fastify gets the logger itself, for its lines per request. Only when debugging: with a
 * logger, Fastify makes and checks a child logger for every request and listens for the end of every
 * response, some 4 µs of CPU per request that would buy nothing at the other levels. Below debug,
 * Fastify's own warnings about one request (a reply sent twice) go unlogged: they point at a bug in a
 * route, which the tests are there to catch, and the servers' own errors are logged through requestLog.
 */
export const logsEveryRequest = (level: string): boolean => level === 'debug' || level === 'trace';

/** The logger for what one request logs (errors mostly), bound to its id as each of its lines is. */
export function requestLog(request: FastifyRequest): FastifyBaseLogger {
  return request.server.log.child({ [REQUEST_ID_LOG_LABEL]: request.id });
}

/** Status logged for a response that closed before it was completely sent (nginx's, as usage records it). */
const CLIENT_CLOSED_STATUS = 499;

/**
 * Fastify's lines per request (arrival, completion), at `debug` as the log level's documentation
 * promises (Fastify writes them at `info`), and a completion line for a request whose client left
 * too: Fastify logs completion when the response finishes, which a response the client closed never
 * does, so such a request would show an arrival and no end. Only in use when logsEveryRequest.
 */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug(
      { req: request, remoteAddress: request.socket.remoteAddress, userAgent: request.headers['user-agent'] },
      'incoming request',
    );
    const response = reply.raw;
    response.once('close', () => {
      if (response.writableFinished) return;
      reply.log.debug(
        { res: { statusCode: CLIENT_CLOSED_STATUS }, responseTime: reply.elapsedTime, clientClosed: true },
        'request completed',
      );
    });
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    // A response that failed while it was written: an error, whatever the level.
    if (error) super.requestCompleted(error, request, reply);
    else reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
