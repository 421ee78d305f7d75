import { isUtf8 } from 'node:buffer';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import { AppError, badRequest, payloadTooLarge } from './errors.js';
import { findInTree, refusedAt, shortPath } from './json-tree.js';
import { loneSurrogateError } from './well-formed-text.js';

/**
 * Deepest nesting of objects and arrays a body may have. Real requests stay under 20; deeper ones
 * would overflow the stack of recursive code downstream (validation, translation, serialisation).
 */
export const MAX_JSON_DEPTH = 128;

/** Content-Encoding values a request body may use, with the stream that undoes each. */
const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};
const ACCEPTED_ENCODINGS = 'gzip, deflate, br (or none)';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request body as received (JSON text, decompressed), kept for the traffic view. */
    rawBody: string | null;
  }
}

/**
 * Whether a request's text is stored as it is sent (the store, the admin API), so that a lone UTF-16
 * surrogate, which has no UTF-8 form, is refused rather than kept as U+FFFD.
 */
export type StoresText = (request: FastifyRequest) => boolean;

/**
 * Installs the one JSON body parser of an app: decoding, charset, UTF-8, nesting and prototype-key
 * checks, and well-formed Unicode where `storesText` says the text is kept.
 */
export function installJsonBody(app: FastifyInstance, storesText?: StoresText): void {
  app.decorateRequest('rawBody', null);
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const encoding = request.headers['content-encoding'];
    if (encoding === undefined) done(null, payload);
    else decodeBody(request, payload, encoding, done);
  });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) =>
    parseJsonBody(request, body as Buffer, done, storesText),
  );
}

/** The excerpt of the body that ends some JSON.parse messages: `Unexpected token 'x', "{"a": x}" is not valid JSON`. */
const JSON_EXCERPT = /, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s;

/** Parses a JSON body, keeping its text on the request, or answers why it is refused. */
function parseJsonBody(
  request: FastifyRequest,
  body: Buffer,
  done: (error: Error | null, value?: unknown) => void,
  storesText: StoresText | undefined,
) {
  const charset = charsetError(request.headers['content-type']);
  if (charset) return done(charset);
  if (body.length === 0)
    return bodyIsOptional(request) ? done(null, undefined) : done(new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY());
  // One fast pass over the bytes; naming the field that holds bad ones is the rare, slow case.
  if (!isUtf8(body)) return done(invalidUtf8Error(body));
  // A leading byte order mark (Windows tools write one) is no JSON, and RFC 8259 lets a parser ignore it.
  const text = stripByteOrderMark(body.toString('utf8'));
  request.rawBody = text;
  let value: unknown;
  try {
    // JSON.parse never recurses on the stack and creates own data properties only, `__proto__` included.
    value = JSON.parse(text);
  } catch (error) {
    // Its message names the problem; the excerpt of the body some carry is dropped: it may hold a secret.
    return done(new SyntaxError((error as Error).message.replace(JSON_EXCERPT, '')));
  }
  if (!structureIsSafe(value)) return done(structureError(value));
  const illFormed = storesText?.(request) ? loneSurrogateError(text, value) : null;
  if (illFormed !== null) return done(illFormed);
  done(null, value);
}

/** The text without one leading U+FEFF, the byte order mark. */
function stripByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Whether the route takes no body or an optional one: such a request may still say it is JSON
 * (`curl -X POST -H 'content-type: application/json' .../cache/purge`) and send nothing.
 */
function bodyIsOptional(request: FastifyRequest): boolean {
  const schema = request.routeOptions.schema?.body as { safeParse?(value: unknown): { success: boolean } } | undefined;
  return schema === undefined || schema.safeParse?.(undefined).success === true;
}

/** A charset other than UTF-8 in the Content-Type, refused rather than decoded wrongly. */
function charsetError(contentType: string | undefined): AppError | null {
  if (contentType === undefined || contentType.length === 16) return null;
  const match = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType);
  if (!match) return null;
  const charset = match[1]!.toLowerCase();
  if (charset === 'utf-8' || charset === 'utf8') return null;
  const shown = charset.length > 40 ? `${charset.slice(0, 40)}...` : match[1];
  return badRequest(`content-type charset must be utf-8, got '${shown}'`);
}

/** Wraps the payload in the decoder of its Content-Encoding, or refuses the encoding with 415. */
function decodeBody(
  request: FastifyRequest,
  payload: Readable,
  header: string,
  done: (error: Error | null, payload?: Readable) => void,
): void {
  const encoding = header.trim().toLowerCase();
  const headers = request.headers;
  const hasBody = headers['transfer-encoding'] !== undefined || (headers['content-length'] ?? '0') !== '0';
  if (encoding === 'identity' || encoding === '' || !hasBody) {
    done(null, payload);
    return;
  }
  const decoder = DECODERS[encoding];
  if (!decoder) {
    const shown = header.length > 40 ? `${header.slice(0, 40)}...` : header;
    const message = `content-encoding '${shown}' is not supported; send the body as ${ACCEPTED_ENCODINGS}`;
    done(new AppError('invalid_request_error', message, { status: 415 }));
    return;
  }
  const limit = request.routeOptions.bodyLimit ?? Number.POSITIVE_INFINITY;
  done(null, decodedStream(payload, decoder(), encoding, limit));
}

/**
 * Counts decoded bytes against the body limit (a small compressed body can expand without bound) and
 * reports the encoded bytes received, which Fastify compares with Content-Length.
 */
class DecodedBody extends Transform {
  receivedEncodedLength = 0;
  private decoded = 0;

  constructor(
    private readonly encoding: string,
    private readonly limit: number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.decoded += chunk.length;
    if (this.decoded > this.limit) {
      callback(
        payloadTooLarge(`${this.encoding} request body decompresses to more than the limit of ${this.limit} bytes`),
      );
      return;
    }
    callback(null, chunk);
  }
}

function decodedStream(payload: Readable, decoder: Transform, encoding: string, limit: number): Readable {
  const body = new DecodedBody(encoding, limit);
  payload.pipe(decoder).pipe(body);
  payload.on('data', (chunk: Buffer) => {
    body.receivedEncodedLength += chunk.length;
  });
  payload.on('error', (error) => body.destroy(error));
  decoder.on('error', (error) =>
    body.destroy(badRequest(`request body is not valid ${encoding} data: ${error.message}`)),
  );
  // Stop inflating once the body is refused: the rest of a bomb is never expanded.
  body.on('close', () => {
    payload.unpipe(decoder);
    decoder.destroy();
  });
  return body;
}

/**
 * True when a parsed body nests no deeper than the limit, has no prototype-rewriting keys and no
 * number too large for a double (JSON.parse makes `1e400` Infinity, which every later step would
 * show, store or forward as null). Iterative.
 */
function structureIsSafe(root: unknown): boolean {
  if (typeof root !== 'object' || root === null) return typeof root !== 'number' || Number.isFinite(root);
  const nodes: object[] = [root];
  const depths: number[] = [1];
  while (nodes.length > 0) {
    const node = nodes.pop() as Record<string, unknown>;
    const depth = depths.pop() as number;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const child: unknown = node[i];
        if (typeof child !== 'object' || child === null) {
          if (typeof child === 'number' && !Number.isFinite(child)) return false;
          continue;
        }
        if (depth === MAX_JSON_DEPTH) return false;
        nodes.push(child);
        depths.push(depth + 1);
      }
      continue;
    }
    for (const key in node) {
      const child = node[key];
      if (typeof child !== 'object' || child === null) {
        if (key === '__proto__' || (typeof child === 'number' && !Number.isFinite(child))) return false;
        continue;
      }
      if (key === '__proto__' || (key === 'constructor' && Object.hasOwn(child, 'prototype'))) return false;
      if (depth === MAX_JSON_DEPTH) return false;
      nodes.push(child);
      depths.push(depth + 1);
    }
  }
  return true;
}

/** Why each refused key is refused: code that copies keys onto objects would rewrite a prototype. */
const PROTO_KEY = "keys named __proto__ can replace an object's prototype in code that copies them";
const CONSTRUCTOR_KEY = 'a prototype key inside a constructor key can rewrite prototypes in code that copies it';
const DEPTH_LIMIT = `the limit is ${MAX_JSON_DEPTH} levels of objects and arrays`;
const NOT_FINITE = `it is not finite as a 64-bit float; numbers must lie within ±${Number.MAX_VALUE}`;

/** Names the first field that made {@link structureIsSafe} refuse a body. */
function structureError(root: unknown): AppError {
  const found = findInTree(root, ({ value, path, key, depth }) => {
    if (key === '__proto__') return refusedAt(path, `field ${shortPath(path)} is not accepted: ${PROTO_KEY}`);
    const isObject = typeof value === 'object' && value !== null;
    if (key === 'constructor' && isObject && Object.hasOwn(value, 'prototype')) {
      const field = `${path}.prototype`;
      return refusedAt(field, `field ${shortPath(path)}.prototype is not accepted: ${CONSTRUCTOR_KEY}`);
    }
    if (typeof value === 'number' && !Number.isFinite(value)) {
      const subject = path === '' ? 'request body' : `field ${shortPath(path)}`;
      return refusedAt(path, `${subject} is a number out of range: ${NOT_FINITE}`);
    }
    if (isObject && depth > MAX_JSON_DEPTH) {
      return refusedAt(
        path,
        `field ${shortPath(path)} is nested more than ${MAX_JSON_DEPTH} levels deep; ${DEPTH_LIMIT}`,
      );
    }
    return null;
  });
  return found ?? badRequest('request body is not accepted');
}

/** Escapes stand for characters, not bytes: each becomes one ASCII character so that only raw bytes are checked. */
const JSON_ESCAPE = /\\(?:u[0-9a-fA-F]{4}|[^])/g;

/** Bytes of a string read as latin1 (one character per byte), when they are not valid UTF-8. */
const badBytes = (text: string): boolean => /[\x80-\xff]/.test(text) && !isUtf8(Buffer.from(text, 'latin1'));
const asUtf8 = (text: string): string => Buffer.from(text, 'latin1').toString('utf8');

/**
 * Names the field holding bytes that are not UTF-8: the body read as latin1 keeps one character per
 * byte, so each string's bytes can be checked alone.
 */
function invalidUtf8Error(body: Buffer): AppError {
  const whole = badRequest('request body is not valid UTF-8');
  let tree: unknown;
  try {
    tree = JSON.parse(body.toString('latin1').replace(JSON_ESCAPE, (escape) => (escape[1] === 'u' ? '_' : escape)));
  } catch {
    return whole;
  }
  const found = findInTree(
    tree,
    ({ value, path, key, parent, parentPath }) => {
      if (key !== null && badBytes(key))
        return refusedAt(parentPath, `a key in ${shortPath(parentPath) || 'the request body'} is not valid UTF-8`);
      if (typeof value !== 'string' || !badBytes(value)) return null;
      return refusedAt(path, `${shortPath(path) || 'request body'}${documentKey(parent, key)} is not valid UTF-8`);
    },
    asUtf8,
  );
  return found ?? whole;
}

/** ` (key 'a.txt')` when the bad value sits beside a `key` field, as store documents do. */
function documentKey(parent: unknown, field: string | null): string {
  if (field === 'key' || typeof parent !== 'object' || parent === null || Array.isArray(parent)) return '';
  const key = (parent as Record<string, unknown>).key;
  if (typeof key !== 'string' || badBytes(key)) return '';
  const shown = asUtf8(key);
  return ` (key '${shown.length > 100 ? `${shown.slice(0, 100)}...` : shown}')`;
}
