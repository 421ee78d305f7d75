import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { databaseStateError, isDatabaseBusy } from './database-errors.js';
import type { DatabaseLockWatch } from '../db/lock-watch.js';
import { closestName } from '../../shared/closest-name.js';
import { AppError, errorBody, type ErrorBody } from './errors.js';
import { lingerIfBodyUnread, type LingerLimits } from './linger-close.js';
import { requestLog } from './logger.js';
import { otherServiceHint } from './other-service.js';

/**
 * Route config flag: answers errors with Anthropic's envelope (`type: "error"` beside `error`), or
 * OpenAI's (`error.param` always there, null when the fault is not one field).
 */
export interface ErrorEnvelopeConfig {
  readonly errorEnvelope?: 'anthropic' | 'openai';
}

declare module 'fastify' {
  // Lets any route declare `config: { errorEnvelope: 'anthropic' }` with type checking.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface FastifyContextConfig extends ErrorEnvelopeConfig {}
  interface FastifyInstance {
    /**
     * Answers 404 for a request no route matched, naming the methods its path answers or the path
     * meant, for a scope that checks something first (the admin API's master key) in its own 404 handler.
     */
    answerNoRoute(request: FastifyRequest, reply: FastifyReply): FastifyReply;
  }
}

/** Turns a zod issue path like `/messages/0/role` into `messages[0].role`. */
function fieldName(instancePath: string, context: string | undefined): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (parts.length === 0) return context ?? 'request';
  return parts.reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

function validationMessage(error: FastifyError): string {
  const context = (error as { validationContext?: string }).validationContext;
  if (hasZodFastifySchemaValidationErrors(error)) {
    return error.validation
      .slice(0, 5)
      .map((issue) => {
        const name = fieldName(issue.instancePath, context);
        // Messages we write ourselves already name the field; zod's defaults do not.
        const message = issue.message ?? 'is invalid';
        return message.includes(name) ? message : `${name}: ${message}`;
      })
      .join('; ');
  }
  return error.message;
}

/** Maps any thrown error to the shared error shape; never leaks internals of unexpected ones. */
export function toErrorResponse(
  thrown: FastifyError | AppError | Error,
  request: FastifyRequest,
): { status: number; body: ErrorBody; headers: Record<string, string> } {
  // Also here, not only in the handler: the gateway's usage row reads its error type from this answer.
  const error = databaseStateError(thrown) ?? thrown;
  if (error instanceof AppError) return { status: error.status, body: error.toBody(), headers: { ...error.headers } };
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const message = missingBodyMessage(fastifyError, request) ?? validationMessage(fastifyError);
    return { status: 400, body: errorBody('invalid_request_error', message), headers: {} };
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, body: errorBody('payload_too_large', bodyTooLargeMessage(request)), headers: {} };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      // 400 rather than 415: every invalid_request_error is a 400 (code equal to status), so clients need one branch.
      return {
        status: 400,
        body: errorBody('invalid_request_error', contentTypeMessage(request.headers['content-type'])),
        headers: {},
      };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return {
        status: 400,
        body: errorBody('invalid_request_error', 'request body is empty; send a JSON object'),
        headers: {},
      };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return {
        status: 400,
        body: errorBody('invalid_request_error', `request body is not valid JSON: ${fastifyError.message}`),
        headers: {},
      };
    default:
      break;
  }
  if (fastifyError instanceof SyntaxError || fastifyError.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') {
    return {
      status: 400,
      body: errorBody('invalid_request_error', `request body is not valid JSON: ${fastifyError.message}`),
      headers: {},
    };
  }
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) {
    const type =
      status === 401
        ? 'authentication_error'
        : status === 403
          ? 'permission_error'
          : status === 404
            ? 'not_found_error'
            : status === 413
              ? 'payload_too_large'
              : 'invalid_request_error';
    return { status, body: errorBody(type, fastifyError.message, status), headers: {} };
  }
  return {
    status: 500,
    body: errorBody('internal_error', 'internal error; see the server log for this request id'),
    headers: {},
  };
}

/**
 * A route that needs a body got none (its fields put in the query string, a client that dropped it) or
 * a JSON `null`: zod would say "expected object, received null" for both, which reads as a bug.
 */
function missingBodyMessage(error: FastifyError, request: FastifyRequest): string | undefined {
  const context = (error as { validationContext?: string }).validationContext;
  if (context !== 'body' || (request.body !== null && request.body !== undefined)) return undefined;
  // The JSON parser keeps the text of every body it read; none means nothing was sent.
  return request.rawBody === null
    ? 'request body is missing; send a JSON object'
    : 'request body is null; send a JSON object';
}

/** Names the size sent (when the client declared it) and the limit, as the per-document 413s do. */
function bodyTooLargeMessage(request: FastifyRequest): string {
  const limit = request.routeOptions.bodyLimit;
  const declared = Number(request.headers['content-length']);
  const bound = limit === undefined ? 'the configured limit' : `${limit} bytes`;
  return Number.isFinite(declared) && declared > 0
    ? `request body is ${declared} bytes; the limit is ${bound}`
    : `request body is larger than ${bound}`;
}

/** Every body the services parse is JSON; other media types (form posts, text) are refused, naming the one sent. */
function contentTypeMessage(contentType: string | undefined): string {
  if (contentType === undefined) return 'content-type must be application/json, got nothing';
  const shown = contentType.length > 100 ? `${contentType.slice(0, 100)}...` : contentType;
  return `content-type must be application/json, got '${shown}'`;
}

const MESSAGES_PATH = '/v1/messages';

/**
 * The envelope Anthropic clients expect for any answer under /v1/messages, routes or not (a wrong
 * method or an unknown sub-path has no route config to say so).
 */
export function envelopeForUrl(url: string): ErrorEnvelopeConfig['errorEnvelope'] {
  if (!url.startsWith(MESSAGES_PATH)) return undefined;
  const next = url.charAt(MESSAGES_PATH.length);
  return next === '' || next === '/' || next === '?' ? 'anthropic' : undefined;
}

/**
 * The envelope a request's errors are answered in: Anthropic's under /v1/messages, and for any request
 * an Anthropic client sends (its SDKs send `anthropic-version` on every call, `/v1/models` included).
 */
export function envelopeForRequest(request: FastifyRequest): ErrorEnvelopeConfig['errorEnvelope'] {
  return request.headers['anthropic-version'] !== undefined ? 'anthropic' : envelopeForUrl(request.url);
}

/** The error body in the given envelope; only OpenAI's has `param`, as only OpenAI sends it. */
export function withEnvelope(envelope: ErrorEnvelopeConfig['errorEnvelope'], body: ErrorBody): object {
  const { param, ...error } = body.error;
  switch (envelope) {
    case 'openai':
      return { error: { ...error, param: param ?? null } };
    case 'anthropic':
      return { type: 'error', error };
    case undefined:
      return { error };
    default:
      throw new Error(`unexpected error envelope ${String(envelope satisfies never)}`);
  }
}

function send(
  reply: FastifyReply,
  status: number,
  body: ErrorBody,
  headers: Record<string, string>,
  linger: LingerLimits | undefined,
): FastifyReply {
  const request = reply.request;
  if (linger !== undefined) lingerIfBodyUnread(request, reply, linger);
  const configured = (request.routeOptions.config as ErrorEnvelopeConfig | undefined)?.errorEnvelope;
  // An Anthropic client's call to an OpenAI-format route (`/v1/models`) is answered in its own envelope.
  const envelope = configured === 'anthropic' ? configured : (envelopeForRequest(request) ?? configured);
  return reply.code(status).headers(headers).type('application/json; charset=utf-8').send(withEnvelope(envelope, body));
}

/** What of a gateway request's pipeline context names its target; the store's requests have none. */
interface GatewayTarget {
  readonly model?: string;
  readonly requestedModel?: string;
  readonly deployment?: { readonly id: string };
}

/**
 * The model and deployment a failed /v1 request was for, when known, so a failure in the log says
 * which upstream failed. Names only: never the prompt, nor the deployment's key or address.
 */
function gatewayTarget(request: FastifyRequest): { model?: string; deployment?: string } {
  const target = (request as { gatewayRequest?: GatewayTarget | null }).gatewayRequest;
  if (!target) return {};
  const model = target.model ?? target.requestedModel;
  return {
    ...(model !== undefined ? { model } : {}),
    ...(target.deployment !== undefined ? { deployment: target.deployment.id } : {}),
  };
}

/**
 * A typed 5xx (a provider failing, a dependency unavailable) is an expected operational event: one
 * warning naming it, no stack. Anything else answered 500 is a bug: an error with its stack.
 */
function logServerError(request: FastifyRequest, error: Error, status: number, body: ErrorBody): void {
  const context = { route: request.routeOptions.url, method: request.method, status, ...gatewayTarget(request) };
  if (error instanceof AppError && status !== 500) {
    const what = body.error.type === 'upstream_error' ? 'upstream failure' : body.error.type;
    requestLog(request).warn({ ...context, type: body.error.type }, `${what}: ${body.error.message}`);
    return;
  }
  requestLog(request).error({ ...context, err: error }, 'unexpected error');
}

/**
 * Installs the one error handler and the 404 handler of an app; with `linger`, an error answered
 * before the client finished sending its body closes the connection only once the client read it.
 */
export function installErrorHandling(app: FastifyInstance, linger?: LingerLimits, lock?: DatabaseLockWatch): void {
  app.setErrorHandler((thrown: FastifyError, request, reply) => {
    // Writes stop waiting the full busy timeout, one after another, while the other process holds on.
    if (isDatabaseBusy(thrown)) lock?.noteBusy();
    const error = databaseStateError(thrown) ?? thrown;
    const { status, body, headers } = toErrorResponse(error, request);
    if (status >= 500) logServerError(request, error, status, body);
    return send(reply, status, body, headers, linger);
  });
  const paths = new Map<string, string[]>();
  app.addHook('onRoute', (route) => {
    // Paths with parameters (`/v1/responses/:id`) are no spelling to suggest.
    if (route.url.includes(':') || route.url.includes('*')) return;
    for (const method of [route.method].flat()) paths.set(method, [...(paths.get(method) ?? []), route.url]);
  });
  const answerNoRoute = (request: FastifyRequest, reply: FastifyReply): FastifyReply =>
    send(reply, 404, errorBody('not_found_error', noRouteMessage(app, request, paths)), {}, linger);
  app.decorate('answerNoRoute', answerNoRoute);
  app.setNotFoundHandler(answerNoRoute);
}

const ROUTE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * `no route GET /v1/apply`, and when the path is served with other methods, which: a script that sent
 * the wrong method learns its mistake rather than that the endpoint does not exist; and when the path
 * is a typo of one served with this method, that one.
 */
function noRouteMessage(
  app: FastifyInstance,
  request: FastifyRequest,
  paths: ReadonlyMap<string, readonly string[]>,
): string {
  const path = request.url.split('?')[0]!;
  // `OPTIONS *` asks about the server, not a path: a route's wildcard would match it and name methods.
  if (path === '*') return `no route ${request.method} *: ask about a path instead (OPTIONS <path>)`;
  const answered = ROUTE_METHODS.filter((method) => method !== request.method && app.findRoute({ method, url: path }));
  const message = `no route ${request.method} ${path}`;
  const prefixed = underV1(app, request, path) ?? otherServiceHint(app, path);
  if (prefixed !== undefined) return `${message}: ${prefixed}`;
  if (answered.length > 0) return `${message}; the path answers ${answered.join(', ')}`;
  // A typo of a path (`/v1/chat/completion`): the one meant, among those the method answers. Long
  // paths are no typo worth the comparison.
  const known = paths.get(request.method) ?? [];
  const meant = path.length <= MAX_SUGGESTED_PATH ? closestName(path, known) : undefined;
  return meant === undefined ? message : `${message}; did you mean ${meant}?`;
}

/** The first segments of the OpenAI (and Anthropic) paths that clients reach without `/v1` when it is left out of their base URL. */
const UNPREFIXED = new Set(['chat', 'completions', 'embeddings', 'models', 'responses', 'messages']);

/**
 * For a path the gateway serves under `/v1` (`/chat/completions`), where it is: LiteLLM answers both,
 * so a client moved from it with `base_url` left as it was would otherwise read a bare 404.
 */
function underV1(app: FastifyInstance, request: FastifyRequest, path: string): string | undefined {
  if (
    !UNPREFIXED.has(path.split('/')[1]!) ||
    !app.findRoute({ method: request.method as HTTPMethods, url: `/v1${path}` })
  )
    return undefined;
  const base = `${request.protocol}://${request.host}`;
  // Anthropic's SDKs add /v1 themselves; OpenAI's expect it in the base URL.
  return path === '/messages'
    ? `the Anthropic Messages API is at /v1/messages; Anthropic's SDKs add /v1 themselves: set base_url to ${base}`
    : `the OpenAI API is under /v1; set base_url to ${base}/v1`;
}

/** The longest request path compared with the routes' for a suggestion (an edit distance costs its square). */
const MAX_SUGGESTED_PATH = 200;
