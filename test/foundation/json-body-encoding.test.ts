import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, TEST_STORE_TOKEN, type TempServers } from '../support/temp-servers.js';
import { errorOf, sendBytes } from './json-body-client.js';

// Compressed bodies (gzip, deflate, br) are decoded before parsing, the body limit counting decoded
// bytes; other encodings are a 415, other charsets and bytes that are not UTF-8 a 400 naming them.

const LIMIT = 1024 * 1024;
const invalid = (message: string) => errorOf('invalid_request_error', message, 400);
/** A gateway error in OpenAI's shape: the same body with the field at fault (`param`). */
const withParam = (body: { error: object }, param: string | null) => ({ error: { ...body.error, param } });

describe('JSON body encodings and charsets', () => {
  let servers: TempServers;
  let key: string;

  const gateway = (path: string, headers: Record<string, string>, body: Buffer | string, auth = key) =>
    sendBytes(
      `${servers.gatewayUrl}${path}`,
      { authorization: `Bearer ${auth}`, 'content-type': 'application/json', ...headers },
      body,
    );
  const store = (headers: Record<string, string>, body: Buffer | string) =>
    sendBytes(
      `${servers.storeUrl}/v1/apply`,
      { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json', ...headers },
      body,
    );
  const chat = (content: string) => JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content }] });
  /** A body of about `size` bytes that compresses to a few kilobytes. */
  const bomb = (size: number) => Buffer.from(`{"model":"demo/echo","pad":"${' '.repeat(size)}"}`);

  beforeAll(async () => {
    servers = await startTempServers({
      gateway: { body_limit_bytes: LIMIT },
      store: { limits: { body_bytes: LIMIT } },
    });
    const created = await gateway('/internal/api-keys', {}, JSON.stringify({ scopes: ['*'] }), TEST_MASTER_KEY);
    key = created.body.key;
  });
  afterAll(async () => servers.stop());

  describe('accepted encodings', () => {
    it('answers a gzip chat end to end and shows the decoded body in the traffic view', async () => {
      const answer = await gateway(
        '/v1/chat/completions',
        { 'content-encoding': 'gzip' },
        gzipSync(chat('zipped hello')),
      );
      expect(answer.status).toBe(200);
      expect(answer.body.choices[0].message.content).toBe('zipped hello');
      const id = answer.headers['x-request-id'];
      let event: any;
      for (let i = 0; i < 50 && !event; i++) {
        const traffic = await sendBytes(
          `${servers.gatewayUrl}/internal/traffic`,
          { authorization: `Bearer ${TEST_MASTER_KEY}` },
          '',
          'GET',
        );
        event = traffic.body.data.find((e: any) => e.request_id === id);
        if (!event) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(event.request_body.messages[0].content).toBe('zipped hello');
    });

    it('accepts deflate, br, x-gzip, identity, a chunked gzip body and any letter case', async () => {
      const body = chat('squeezed');
      const cases: [Record<string, string>, Buffer | string][] = [
        [{ 'content-encoding': 'deflate' }, deflateSync(body)],
        [{ 'content-encoding': 'br' }, brotliCompressSync(body)],
        [{ 'content-encoding': 'x-gzip' }, gzipSync(body)],
        [{ 'content-encoding': 'GZIP' }, gzipSync(body)],
        [{ 'content-encoding': 'identity' }, body],
        [{ 'content-encoding': 'gzip', 'transfer-encoding': 'chunked' }, gzipSync(body)],
      ];
      for (const [headers, payload] of cases) {
        const answer = await gateway('/v1/chat/completions', headers, payload);
        expect(answer.status, JSON.stringify(headers)).toBe(200);
        expect(answer.body.choices[0].message.content).toBe('squeezed');
      }
      const embedded = await gateway(
        '/v1/embeddings',
        { 'content-encoding': 'br' },
        brotliCompressSync(JSON.stringify({ model: 'demo/embed', input: 'x' })),
      );
      expect(embedded.status).toBe(200);
    });

    it('stores a gzip apply on the store', async () => {
      const apply = JSON.stringify({
        scope: { namespace: 'zip' },
        documents: [{ key: 'a.txt', content: 'compressed ✓' }],
      });
      const answer = await store({ 'content-encoding': 'gzip' }, gzipSync(apply));
      expect(answer.status).toBe(200);
      const state = await sendBytes(
        `${servers.storeUrl}/v1/state?namespace=zip`,
        { authorization: `Bearer ${TEST_STORE_TOKEN}` },
        '',
        'GET',
      );
      expect(state.body.objects).toEqual({ 'a.txt': 'compressed ✓' });
    });
  });

  describe('refused encodings', () => {
    it('answers 413 naming the limit when a small compressed body decodes past it', async () => {
      const zipped = gzipSync(bomb(LIMIT * 4));
      expect(zipped.length).toBeLessThan(LIMIT / 50);
      const message = `gzip request body decompresses to more than the limit of ${LIMIT} bytes`;
      const answer = await gateway('/v1/chat/completions', { 'content-encoding': 'gzip' }, zipped);
      expect(answer.status).toBe(413);
      expect(answer.body).toEqual(withParam(errorOf('payload_too_large', message, 413), null));
      const stored = await store({ 'content-encoding': 'br' }, brotliCompressSync(bomb(LIMIT * 4)));
      expect(stored.body).toEqual(
        errorOf('payload_too_large', `br request body decompresses to more than the limit of ${LIMIT} bytes`, 413),
      );
      // Just under the limit once decoded is fine.
      const under = await gateway(
        '/v1/chat/completions',
        { 'content-encoding': 'gzip' },
        gzipSync(chat('a'.repeat(LIMIT - 100))),
      );
      expect(under.status).toBe(200);
    });

    it('answers 400 naming the encoding for a corrupt or truncated stream', async () => {
      const corrupt = await gateway('/v1/chat/completions', { 'content-encoding': 'gzip' }, 'this is not gzip');
      expect(corrupt.status).toBe(400);
      expect(corrupt.body.error.message).toBe('request body is not valid gzip data: incorrect header check');
      const zipped = gzipSync(chat('cut short'));
      const truncated = await gateway(
        '/v1/messages',
        { 'content-encoding': 'gzip' },
        zipped.subarray(0, zipped.length - 12),
      );
      expect(truncated.status).toBe(400);
      expect(truncated.body).toEqual({
        type: 'error',
        ...invalid('request body is not valid gzip data: unexpected end of file'),
      });
      const brotli = await store({ 'content-encoding': 'br' }, 'not brotli either');
      expect(brotli.status).toBe(400);
      expect(brotli.body.error.message).toMatch(/^request body is not valid br data: /);
    });

    it('answers 415 in the shared shape for any other encoding, after authentication', async () => {
      const expected = (encoding: string) =>
        errorOf(
          'invalid_request_error',
          `content-encoding '${encoding}' is not supported; send the body as gzip, deflate, br (or none)`,
          415,
        );
      const compress = await gateway('/v1/chat/completions', { 'content-encoding': 'compress' }, chat('x'));
      expect(compress.status).toBe(415);
      expect(compress.headers['x-request-id']).toBeDefined();
      expect(compress.body).toEqual(withParam(expected('compress'), null));
      const messages = await gateway('/v1/messages', { 'content-encoding': 'zstd' }, '{}');
      expect(messages.body).toEqual({ type: 'error', ...expected('zstd') });
      const stacked = await store({ 'content-encoding': 'gzip, br' }, '{}');
      expect(stacked.body).toEqual(expected('gzip, br'));
      const stranger = await gateway('/v1/chat/completions', { 'content-encoding': 'compress' }, '{}', 'gk-nobody');
      expect(stranger.status).toBe(401);
    });
  });

  describe('charsets and UTF-8', () => {
    it('refuses a charset other than UTF-8, naming it, and accepts UTF-8 however it is spelled', async () => {
      for (const charset of ['latin1', 'ISO-8859-1', 'utf-16']) {
        const answer = await gateway(
          '/v1/chat/completions',
          { 'content-type': `application/json; charset=${charset}` },
          chat('x'),
        );
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual(withParam(invalid(`content-type charset must be utf-8, got '${charset}'`), null));
      }
      const stored = await store({ 'content-type': 'application/json; charset=latin1' }, '{}');
      expect(stored.body).toEqual(invalid("content-type charset must be utf-8, got 'latin1'"));
      for (const type of [
        'application/json; charset=UTF-8',
        'application/json;charset="utf-8"',
        'application/json; charset=utf8',
      ]) {
        expect((await gateway('/v1/chat/completions', { 'content-type': type }, chat('ok'))).status, type).toBe(200);
      }
    });

    it('names the field holding bytes that are not UTF-8 instead of replacing them', async () => {
      const bad = Buffer.concat([
        Buffer.from('{"model":"demo/echo","messages":[{"role":"user","content":"caf'),
        Buffer.from([0xe9]),
        Buffer.from('"}]}'),
      ]);
      const answer = await gateway('/v1/chat/completions', {}, bad);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(withParam(invalid('messages[0].content is not valid UTF-8'), 'messages[0].content'));
      const zipped = await gateway('/v1/chat/completions', { 'content-encoding': 'gzip' }, gzipSync(bad));
      expect(zipped.body).toEqual(withParam(invalid('messages[0].content is not valid UTF-8'), 'messages[0].content'));
    });
  });
});
