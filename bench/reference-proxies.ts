/**
 * The reference proxies of the gateway benchmark (bench/gateway.bench.ts), each the source of a child
 * process run with `node -e`. They put the gateway's throughput in proportion: the bare proxy is what
 * any Node proxy pays on this machine, the lean reference what the gateway's own work costs at the
 * least, and the raw-socket ceiling the most a Node process forwarding JSON can reach.
 */

/**
 * The floor: a bare Fastify route forwarding to the upstream over an undici pool (what TOOLCHAIN.md
 * measured as the fastest Node proxy), with none of the gateway's work. Shows how much of the overhead
 * any Node proxy pays on this machine, and how much is the gateway's own.
 */
export const FLOOR_CHILD = String.raw`
import Fastify from 'fastify';
import { Pool } from 'undici';
const pool = new Pool(process.env.BENCH_UPSTREAM);
const app = Fastify();
app.post('/v1/chat/completions', async (request, reply) => {
  const upstream = await pool.request({ method: 'POST', path: '/v1/chat/completions', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request.body) });
  if (request.body.stream !== true) {
    reply.type('application/json');
    return upstream.body.text();
  }
  reply.hijack();
  reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
  for await (const chunk of upstream.body) reply.raw.write(chunk);
  reply.raw.end();
});
await app.listen({ host: '127.0.0.1', port: 0 });
process.on('message', (message) => {
  if (message.type !== 'stats') return;
  const cpu = process.cpuUsage();
  process.send({ type: 'stats', rss: process.memoryUsage().rss, heap: 0, cpuMicros: cpu.user + cpu.system });
});
process.send({ type: 'ready', url: 'http://127.0.0.1:' + app.server.address().port });
`;

/**
 * The ceiling: a proxy on raw TCP sockets (no HTTP library on either side; content-length bodies only,
 * no error handling), that parses the request and the answer as JSON and rewrites `model`, as the
 * gateway must. Not a usable proxy: it shows the most any Node process forwarding JSON can reach on
 * this machine, to put the throughput target in proportion.
 */
export const RAW_CEILING_CHILD = String.raw`
import net from 'node:net';
const upstream = new URL(process.env.BENCH_UPSTREAM);
const idle = [];
const withUpstream = (use) => {
  const socket = idle.pop();
  if (socket) return use(socket);
  const fresh = net.connect(Number(upstream.port), upstream.hostname, () => use(fresh));
  fresh.setNoDelay(true);
  fresh.on('error', () => fresh.destroy());
};
const frames = (socket, onMessage) => {
  let buffer = null;
  socket.on('data', (chunk) => {
    buffer = buffer ? Buffer.concat([buffer, chunk]) : chunk;
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/content-length: *(\d+)/i.exec(buffer.latin1Slice(0, end))?.[1] ?? 0);
      if (buffer.length < end + 4 + length) return;
      const body = buffer.utf8Slice(end + 4, end + 4 + length);
      buffer = buffer.length === end + 4 + length ? null : buffer.subarray(end + 4 + length);
      onMessage(body);
      if (!buffer) return;
    }
  });
};
const server = net.createServer((client) => {
  client.setNoDelay(true);
  client.on('error', () => client.destroy());
  frames(client, (text) => {
    const request = JSON.parse(text);
    request.model = 'gpt-4o-mini';
    const out = JSON.stringify(request);
    withUpstream((socket) => {
      socket.once('answer', (answerText) => {
        idle.push(socket);
        const answer = JSON.parse(answerText);
        answer.model = 'bench-model';
        const body = JSON.stringify(answer);
        client.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ' + Buffer.byteLength(body) + '\r\n\r\n' + body);
      });
      if (!socket.framed) { socket.framed = true; frames(socket, (answerText) => socket.emit('answer', answerText)); }
      socket.write('POST /v1/chat/completions HTTP/1.1\r\nhost: ' + upstream.host + '\r\ncontent-type: application/json\r\ncontent-length: ' + Buffer.byteLength(out) + '\r\n\r\n' + out);
    });
  });
});
server.listen(0, '127.0.0.1', () => process.send({ type: 'ready', url: 'http://127.0.0.1:' + server.address().port }));
`;

/**
 * The lean reference: the bare proxy plus the least the gateway must do per request in this bench's
 * configuration, written as directly as it can be, with the gateway's own parts where they exist:
 * the Host check, the key found by a map lookup, an `x-request-id`, the body kept as text and parsed,
 * the gateway's chat schema (zod), the forwarded body with the routed model sent through the
 * gateway's upstream exchange (undici's dispatch API, cheaper than the bare proxy's `request`), the
 * answer parsed (an invalid one must be caught) and its model rewritten in the text, a usage row
 * written 200 to a transaction through the gateway's UsageRepository into its real schema, and a
 * traffic record with both bodies in the gateway's RecordArena. Left out, so it is below what the gateway can reach: the
 * nesting and UTF-8 checks, limits, policy stages, routing with retries and health, metrics, client
 * disconnect handling, timeouts and every error path. Not a usable proxy: it prices the work, to put
 * the throughput target in proportion.
 */
export const LEAN_CHILD = String.raw`
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import { Pool } from 'undici';
const load = (path) => import(pathToFileURL(join(process.env.BENCH_SERVER_ROOT, 'server', path)).href);
const { chatRequestSchema } = await load('gateway/formats/chat/chat-schema.js');
const { RecordArena } = await load('gateway/traffic/record-arena.js');
const { encodeRecord } = await load('gateway/traffic/record-codec.js');
const { openDatabase } = await load('db/connection.js');
const { openBatchConnection } = await load('gateway/accounting/batch-connection.js');
const { UsageRepository } = await load('gateway/accounting/usage.repository.js');
const { exchange } = await load('gateway/providers/upstream-exchange.js');
// Nobody cancels here: the lean reference does not watch for clients that leave.
const never = { aborted: false, once() { return this; }, off() { return this; } };
const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-lean-'));
const database = openDatabase(join(dataDir, 'lean.db'), process.env.BENCH_MIGRATIONS);
const batch = openBatchConnection(database);
const usage = new UsageRepository(batch.sqlite);
let queued = [];
const arena = new RecordArena(1000);
let seq = 0;
const keys = new Map([[process.env.BENCH_LEAN_KEY, { id: 'lean-key', name: 'bench' }]]);
const pool = new Pool(process.env.BENCH_UPSTREAM);
const app = Fastify();
app.removeContentTypeParser('application/json');
app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
  request.rawText = text;
  try { done(null, JSON.parse(text)); } catch (error) { done(error); }
});
app.addHook('onRequest', (request, reply, done) => {
  const host = request.headers.host ?? '';
  if (!host.startsWith('127.0.0.1:') && !host.startsWith('localhost:')) return done(new Error('host not allowed'));
  const key = keys.get((request.headers.authorization ?? '').slice(7));
  if (key === undefined) return done(new Error('unknown key'));
  request.key = key;
  request.startedAt = performance.now();
  request.requestId = randomUUID();
  reply.header('x-request-id', request.requestId);
  done();
});
app.post('/v1/chat/completions', async (request, reply) => {
  const parsed = chatRequestSchema.safeParse(request.body);
  if (!parsed.success) throw new Error('invalid body');
  const upstream = await exchange(pool, { method: 'POST', path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench-upstream' },
    body: JSON.stringify({ ...parsed.data, model: 'gpt-4o-mini' }) }, never, 0);
  const text = await upstream.body.text();
  const answer = JSON.parse(text);
  const out = text.replace('"model":' + JSON.stringify(answer.model), '"model":"bench-model"');
  const latencyMs = performance.now() - request.startedAt;
  const promptTokens = answer.usage.prompt_tokens;
  const completionTokens = answer.usage.completion_tokens;
  const costUsd = (promptTokens * 0.15 + completionTokens * 0.6) / 1e6;
  queued.push({ requestId: request.requestId, createdAt: Date.now(), keyId: request.key.id, ownerUser: null, team: null,
    endpoint: 'chat', model: 'bench-model', deployment: 'bench-upstream', provider: 'openai', promptTokens, completionTokens,
    costUsd, latencyMs, status: 200, errorType: null, stream: false, cached: false, admitted: true });
  if (queued.length >= 200) { usage.insertBatch(queued); queued = []; }
  seq += 1;
  arena.push(seq, encodeRecord({ request_id: request.requestId, startedAtMs: Date.now(), endpoint: 'chat', method: 'POST',
    path: '/v1/chat/completions', status: 200, error_type: null, requested_model: 'bench-model', model: 'bench-model',
    deployment: 'bench-upstream', provider: 'openai', key_id: request.key.id, key_name: request.key.name, user: null, team: null,
    stream: false, cached: false, attempts: 1, latency_ms: latencyMs, prompt_tokens: promptTokens,
    completion_tokens: completionTokens, cost_usd: costUsd,
    requestBody: { kind: 'json', text: request.rawText, patch: { model: 'gpt-4o-mini' } }, responseBody: { kind: 'json', text: out } }));
  reply.type('application/json');
  return out;
});
await app.listen({ host: '127.0.0.1', port: 0 });
process.on('message', (message) => {
  if (message.type === 'stop') { batch.close(); database.close(); rmSync(dataDir, { recursive: true, force: true }); process.exit(0); }
  if (message.type !== 'stats') return;
  const cpu = process.cpuUsage();
  process.send({ type: 'stats', rss: process.memoryUsage().rss, heap: 0, cpuMicros: cpu.user + cpu.system });
});
process.send({ type: 'ready', url: 'http://127.0.0.1:' + app.server.address().port });
`;
