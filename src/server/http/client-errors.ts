import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, type ErrorType } from './errors.js';
import { envelopeForUrl, withEnvelope } from './error-handler.js';
import { lingerThenDestroy, type LingerLimits } from './linger-close.js';
import { requestLog } from './logger.js';
import { assignedRequestId, requestIdFor } from './request-id.js';

/** Sockets already answered: a broken parser reports every later chunk again. */
const answered = new WeakSet<Socket>();

/** A complete HTTP/1.1 error answer in the shared shape (Anthropic's envelope when asked), closing the connection. */
export function rawErrorResponse(
  status: number,
  type: ErrorType,
  message: string,
  requestId: string = randomUUID(),
  envelope: ErrorEnvelope = undefined,
): string {
  const body = JSON.stringify(withEnvelope(envelope, errorBody(type, message, status)));
  // Anthropic's SDKs read the id from `request-id`, as the app's own answers under /v1/messages send it.
  const anthropicId = envelope === 'anthropic' ? `request-id: ${requestId}\r\n` : '';
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
    'content-type: application/json; charset=utf-8\r\n' +
    `content-length: ${Buffer.byteLength(body)}\r\n` +
    `x-request-id: ${requestId}\r\n` +
    anthropicId +
    'connection: close\r\n\r\n' +
    body
  );
}

type ErrorEnvelope = ReturnType<typeof envelopeForUrl>;

/** Bytes of the request line read to find the path an error answer's envelope depends on. */
const REQUEST_LINE_PEEK = 64;

/**
 * The envelope for an error the parser raised: from the request Node already built when its headers
 * arrived, otherwise from the request line at the start of the bytes it failed on (the target's
 * beginning is enough, so a 414's over-long path still tells).
 */
function envelopeForParserError(pending: ServerResponse | undefined, packet: Buffer | undefined): ErrorEnvelope {
  const req = pending?.req;
  if (req !== undefined)
    return req.headers['anthropic-version'] !== undefined ? 'anthropic' : envelopeForUrl(req.url ?? '');
  if (packet === undefined) return undefined;
  const line = packet.subarray(0, REQUEST_LINE_PEEK).toString('latin1');
  const target = /^[A-Z]+ (\S+)/.exec(line)?.[1];
  return target === undefined ? undefined : envelopeForUrl(target);
}

/** Node's parser error, with what it had read when it failed. */
interface ParserError extends Error {
  readonly code?: string;
  readonly reason?: string;
  readonly rawPacket?: Buffer;
}

/** True when the bytes that overflowed are still the request line: the URI is too long, not the headers. */
function requestLineTooLong(packet: Buffer | undefined, maxHeaderSize: number): boolean {
  if (!packet) return false;
  const lineEnd = packet.indexOf('\n');
  const startsWithMethod = /^[A-Z]+ /.test(packet.subarray(0, 16).toString('latin1'));
  return startsWithMethod && (lineEnd === -1 || lineEnd > maxHeaderSize / 2);
}

/** The answer for an error raised before a request reached the app, or undefined to just close. */
function answerFor(error: ParserError, socket: Socket, limits: TimeoutLimits): string | undefined {
  const pending = pendingResponse(socket);
  // A request whose headers arrived already has its id (in the log, and echoed when the client sent one).
  const id = (pending?.req !== undefined ? assignedRequestId(pending.req) : undefined) ?? randomUUID();
  const envelope = envelopeForParserError(pending, error.rawPacket);
  const answer = (status: number, message: string) =>
    rawErrorResponse(status, 'invalid_request_error', message, id, envelope);
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    // A socket that never sent a byte gets no unsolicited answer.
    if (socket.bytesRead === 0) return undefined;
    return answer(
      408,
      pending
        ? `the request body did not arrive within ${limits.requestTimeoutMs} ms (server.request_timeout_ms)`
        : `the request headers did not arrive within ${limits.headersTimeoutMs} ms (server.headers_timeout_ms)`,
    );
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return requestLineTooLong(error.rawPacket, limits.maxHeaderSize)
      ? answer(414, `the request URI is longer than the server accepts`)
      : answer(
          431,
          `the request headers are larger than the server accepts (${limits.maxHeaderSize} bytes with the request line)`,
        );
  }
  if (error.code?.startsWith('HPE_')) {
    const reason = error.reason ?? error.message.replace(/^Parse Error: /, '');
    return answer(400, `malformed HTTP request: ${reason}`);
  }
  return undefined;
}

/** The response Node holds for the socket's current request, once its headers were parsed. */
function pendingResponse(socket: Socket): ServerResponse | undefined {
  return (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage ?? undefined;
}

/** What the parser-level answers need to name the limit that was hit. */
interface TimeoutLimits {
  readonly requestTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly maxHeaderSize: number;
}

/**
 * Fastify's `clientErrorHandler` (called with the app as `this`): framing errors, oversized headers
 * and request timeouts answered in the shared shape with a request id (Node's own answers have
 * neither), then a lingering close.
 */
export function clientErrorHandler(linger: LingerLimits) {
  return function answerClientError(this: FastifyInstance, connectionError: Error, socket: Socket): void {
    const error = connectionError as ParserError;
    if (answered.has(socket)) return;
    answered.add(socket);
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const server = this.server;
    const limits = {
      requestTimeoutMs: server.requestTimeout,
      headersTimeoutMs: server.headersTimeout,
      maxHeaderSize: (server as { maxHeaderSize?: number }).maxHeaderSize ?? maxHeaderSize,
    };
    const writable = socket.writable && !pendingResponse(socket)?.headersSent;
    const answer = writable ? answerFor(error, socket, limits) : undefined;
    if (answer === undefined) {
      socket.destroy();
      return;
    }
    socket.write(answer);
    lingerThenDestroy(socket, linger);
  };
}

/**
 * The server's `connect` listener: a CONNECT request (a proxy tunnel) answered 400 in the shared shape
 * with its request id, then closed. Without a listener Node drops the socket with no answer at all.
 */
export function connectRequestHandler(linger: LingerLimits) {
  return function answerConnect(req: IncomingMessage, socket: Duplex): void {
    const message = `the method CONNECT is not served: this server is no proxy; send requests for its own paths`;
    // Node hands the socket over without its own error listener: a reset must not become an uncaught error.
    socket.on('error', () => socket.destroy());
    socket.write(rawErrorResponse(400, 'invalid_request_error', message, requestIdFor(req)));
    // Read on (and discard) so the client's close is seen and the lingering close can finish.
    socket.resume();
    lingerThenDestroy(socket as Socket, linger);
  };
}

/** Fastify's `frameworkErrors`: a malformed URL or parameter, answered before any hook ran. */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const url = request.raw.url ?? '';
  const shown = url.length > 200 ? `${url.slice(0, 200)}...` : url;
  const [status, type, message]: [number, ErrorType, string] =
    error.code === 'FST_ERR_BAD_URL'
      ? [400, 'invalid_request_error', `the URL '${shown}' is not valid: a percent escape does not decode`]
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? [414, 'invalid_request_error', `a path parameter of '${shown}' is longer than the server accepts`]
        : [500, 'internal_error', 'internal error; see the server log for this request id'];
  if (status === 500) requestLog(request).error({ err: error }, 'unexpected framework error');
  void reply
    .code(status)
    .header('x-request-id', request.id)
    .type('application/json; charset=utf-8')
    .send(withEnvelope(envelopeForUrl(url), errorBody(type, message, status)));
}
