/**
 * Gateway overhead benchmark (`npm run bench:gateway`): the same load against a local mock OpenAI
 * upstream directly and through the gateway (auth, usage accounting, metrics and traffic on).
 *
 * Three processes: this one drives the load (autocannon and an undici client); the mock upstream
 * and the gateway each run in a child of their own. The gateway runs as the desktop app ships it,
 * compiled to JavaScript (`tsc -p tsconfig.server.json` into out/bench-server), or under tsx as
 * `npm run serve` runs it (BENCH_RUNTIME=tsx; the loader alone adds some 35 MB of RSS). The reference
 * proxies (bench/reference-proxies.ts) run in children of their own too, in the same run.
 *
 * Environment (all optional):
 *   BENCH_DURATION      seconds of each 32-connection throughput run (default 10)
 *   BENCH_ROUNDS        interleaved rounds of the bare proxy and the gateway at 32 connections (default 3)
 *   BENCH_WARMUP        seconds at 32 connections each proxy serves, unmeasured, before those rounds (default 5)
 *   BENCH_SEQUENTIAL    sequential requests per latency run (default 5000)
 *   BENCH_STREAMS       sequential streaming requests per TTFT run (default 1000)
 *   BENCH_TOTAL         requests through the gateway before the RSS reading (default 100000)
 *   BENCH_SOAK_SECONDS  extra soak at 32 connections, RSS sampled every 10 s (default 0; 600 = the ten-minute soak);
 *                       with BENCH_EXPOSE_GC, also the live heap after a full collection at each sample
 *   BENCH_PROFILE       a directory: the gateway child writes a V8 CPU profile there
 *   BENCH_HEAP_SNAPSHOTS a directory: heap snapshots of the gateway at the soak's start and end (to diff)
 *   BENCH_RUNTIME       `compiled` (default) or `tsx`
 *   BENCH_STAGE_ROUNDS  interleaved rounds of the policy-stage comparison, BENCH_SEQUENTIAL / 2 requests each (default 3)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from 'undici';
import { FLOOR_CHILD, LEAN_CHILD, RAW_CEILING_CHILD } from './reference-proxies.js';
import { measureStageOverhead } from './stage-overhead.js';

const MASTER_KEY = 'gk-master-bench-0123456789abcdef';
const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '..');
const env = (name: string, fallback: number): number => (process.env[name] ? Number(process.env[name]) : fallback);

// ---------------------------------------------------------------------------------------------
// Children. Plain JavaScript run with `node -e`, so neither pays for a TypeScript loader.

/** The mock upstream: OpenAI's chat completions with a fixed answer, JSON or SSE. */
const UPSTREAM_CHILD = String.raw`
import { createServer } from 'node:http';
const ANSWER = JSON.stringify({
  id: 'chatcmpl-bench', object: 'chat.completion', created: 1700000000, model: 'gpt-4o-mini-2024-07-18',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! How can I help you today?', refusal: null }, logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 }, system_fingerprint: 'fp_bench',
});
const chunk = (delta, finish = null, usage) => 'data: ' + JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1700000000, model: 'gpt-4o-mini',
  choices: usage ? [] : [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...(usage ? { usage } : {}) }) + '\n\n';
const words = 'Hello! How can I help you today with your question?'.split(' ');
const frames = [chunk({ role: 'assistant', content: '' }), ...words.map((w, i) => chunk({ content: i === 0 ? w : ' ' + w })), chunk({}, 'stop'),
  chunk({}, null, { prompt_tokens: 12, completion_tokens: words.length, total_tokens: 12 + words.length }), 'data: [DONE]\n\n'];
const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (c) => chunks.push(c));
  request.on('end', () => {
    if (!Buffer.concat(chunks).includes('"stream":true')) {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(ANSWER) });
      response.end(ANSWER);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    // The first token at once, the rest a tick later: time to first token is what is measured.
    response.write(frames[0] + frames[1]);
    setImmediate(() => response.end(frames.slice(2).join('')));
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.send({ type: 'ready', url: 'http://127.0.0.1:' + server.address().port }));
`;

/** The gateway: the real servers, started as \`npm run serve\` starts them, from BENCH_SERVER_ROOT. */
const GATEWAY_CHILD = String.raw`
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
const root = process.env.BENCH_SERVER_ROOT;
const { loadConfig } = await import(pathToFileURL(join(root, 'server/config/load.js')).href);
const { startServers } = await import(pathToFileURL(join(root, 'server/start.js')).href);
const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'));
const env = { GATEHOUSE_DATA_DIR: dataDir, GATEWAY_PORT: '0', STORE_PORT: '0', GATEHOUSE_LOG_LEVEL: 'warn', PROXY_MASTER_KEY: process.env.BENCH_MASTER_KEY, STORE_TOKEN: 'st-bench-token-0123456789abcdef' };
const { config } = loadConfig({ env, overrides: {
  server: { ui: false },
  llm: { allowed_models: ['bench-model'] },
  deployments: [{ id: 'bench-upstream', model: 'bench-model', provider: 'openai', upstream_model: 'gpt-4o-mini', base_url: process.env.BENCH_UPSTREAM + '/v1', api_key: 'sk-bench-upstream' }],
  pricing: { 'bench-model': { input_per_mtok: 0.15, output_per_mtok: 0.6 } },
} });
const servers = await startServers(config, { env, migrationsDir: process.env.BENCH_MIGRATIONS });
process.on('message', async (message) => {
  if (message.type === 'stats') {
    if (message.gc && typeof globalThis.gc === 'function') globalThis.gc();
    const cpu = process.cpuUsage();
    const memory = process.memoryUsage();
    if (process.env.BENCH_MEMORY_DETAIL) {
      const v8 = await import('node:v8');
      const fs = await import('node:fs');
      const spaces = v8.getHeapSpaceStatistics().map((s) => s.space_name + '=' + (s.space_size / 1048576).toFixed(1)).join(' ');
      const status = fs.readFileSync('/proc/self/status', 'utf8').split('\n').filter((l) => /^(VmRSS|RssAnon|RssFile|RssShmem|VmHWM)/.test(l)).join(' ');
      console.error('memory: heapTotal', (memory.heapTotal / 1048576).toFixed(1), 'external', (memory.external / 1048576).toFixed(1), 'arrayBuffers', (memory.arrayBuffers / 1048576).toFixed(1), '|', spaces, '|', status.replace(/\s+/g, ' '));
    }
    process.send({ type: 'stats', rss: memory.rss, heap: memory.heapUsed, cpuMicros: cpu.user + cpu.system });
  }
  if (message.type === 'snapshot') {
    const v8 = await import('node:v8');
    if (typeof globalThis.gc === 'function') globalThis.gc();
    process.send({ type: 'snapshot', file: v8.writeHeapSnapshot(message.file) });
  }
  if (message.type === 'stop') servers.close().then(() => { rmSync(dataDir, { recursive: true, force: true }); process.exit(0); });
});
process.send({ type: 'ready', url: servers.gatewayUrl });
`;

/** The gateway's Node flags, as `npm run serve` and `npm start` pass them. */
const SERVER_NODE_FLAGS: string[] = JSON.parse(readFileSync(join(REPO, 'scripts', 'server-node-flags.json'), 'utf8'));

/** Compiles the server to out/bench-server (type errors elsewhere do not stop the emit); returns its root. */
function compileServer(): string {
  const outDir = join(REPO, 'out', 'bench-server');
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  process.stdout.write('compiling the server (tsc -p tsconfig.server.json) ...\n');
  spawnSync(process.execPath, [tsc, '-p', join(REPO, 'tsconfig.server.json'), '--outDir', outDir], {
    cwd: REPO,
    stdio: 'ignore',
  });
  if (!existsSync(join(outDir, 'server', 'start.js')))
    throw new Error('compiling the server produced no out/bench-server/server/start.js');
  return outDir;
}

// ---------------------------------------------------------------------------------------------
// Role: driver.

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

function startChild(
  name: string,
  code: string,
  options: { loader?: boolean; env?: NodeJS.ProcessEnv; profile?: boolean; nodeFlags?: readonly string[] } = {},
): Promise<{ child: ChildProcess; url: string }> {
  const profile =
    options.profile && process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const loader = options.loader ? ['--import', 'tsx'] : [];
  const flags = [
    ...(options.nodeFlags ?? []),
    ...(process.env.BENCH_EXPOSE_GC ? ['--expose-gc'] : []),
    ...(process.env.BENCH_NODE_FLAGS ? process.env.BENCH_NODE_FLAGS.split(' ') : []),
  ];
  const child = spawn(process.execPath, [...loader, ...flags, ...profile, '--input-type=module', '-e', code], {
    cwd: REPO,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolvePromise, reject) => {
    child.once('message', (message: { type: string; url: string }) => resolvePromise({ child, url: message.url }));
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
}

interface ChildStats {
  rss: number;
  heap: number;
  cpuMicros: number;
}

function statsOf(child: ChildProcess, gc = false): Promise<ChildStats> {
  return new Promise((resolve) => {
    const listener = (message: { type: string } & ChildStats) => {
      if (message.type !== 'stats') return;
      child.off('message', listener);
      resolve(message);
    };
    child.on('message', listener);
    child.send({ type: 'stats', gc });
  });
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const round = (value: number, digits = 3): number => Math.round(value * 10 ** digits) / 10 ** digits;

interface LatencyStats {
  p50: number;
  p99: number;
  mean: number;
  rps: number;
}

/** Sequential requests over one keep-alive connection; latency in ms, measured to the last byte (or the first token). */
async function sequential(
  origin: string,
  headers: Record<string, string>,
  body: string,
  count: number,
  mode: 'full' | 'ttft',
): Promise<LatencyStats> {
  const client = new Client(origin, { keepAliveTimeout: 60_000, pipelining: 1 });
  const samples: number[] = [];
  const warmup = Math.min(500, Math.ceil(count / 10));
  const started = performance.now();
  for (let i = 0; i < count + warmup; i += 1) {
    const t0 = performance.now();
    const response = await client.request({ method: 'POST', path: '/v1/chat/completions', headers, body });
    if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}: ${await response.body.text()}`);
    let t1 = 0;
    if (mode === 'ttft') {
      let seen = '';
      for await (const chunk of response.body) {
        if (t1 === 0) {
          seen += chunk.toString();
          // The first frame that carries generated text.
          if (/"content":"[^"]/.test(seen)) t1 = performance.now();
        }
      }
    } else {
      await response.body.dump();
      t1 = performance.now();
    }
    if (i >= warmup) samples.push(t1 - t0);
  }
  const elapsed = (performance.now() - started) / 1000;
  await client.close();
  samples.sort((a, b) => a - b);
  return {
    p50: round(percentile(samples, 50)),
    p99: round(percentile(samples, 99)),
    mean: round(samples.reduce((s, v) => s + v, 0) / samples.length),
    rps: round((count + warmup) / elapsed, 0),
  };
}

/** The gateway's own view of the last requests' latency (arrival to answer sent), from its usage log. */
async function serverLatency(url: string, count: number): Promise<{ p50: number; p99: number }> {
  const response = await fetch(`${url}/internal/usage/logs?limit=${count}`, {
    headers: { authorization: `Bearer ${MASTER_KEY}` },
  });
  const rows = ((await response.json()) as { data: Array<{ latency_ms: number }> }).data
    .map((row) => row.latency_ms)
    .sort((a, b) => a - b);
  return { p50: round(percentile(rows, 50)), p99: round(percentile(rows, 99)) };
}

async function load(
  url: string,
  headers: Record<string, string>,
  body: string,
  duration: number,
  connections = 32,
): Promise<AutocannonResult> {
  const result = await autocannon({
    url: `${url}/v1/chat/completions`,
    method: 'POST',
    headers,
    body,
    connections,
    duration,
    pipelining: 1,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`load run had ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  return result;
}

async function loadRequests(
  url: string,
  headers: Record<string, string>,
  body: string,
  amount: number,
): Promise<AutocannonResult> {
  const result = await autocannon({
    url: `${url}/v1/chat/completions`,
    method: 'POST',
    headers,
    body,
    connections: 32,
    amount,
    pipelining: 1,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`load run had ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  return result;
}

/** One load run with the CPU the measured process spent on it. */
interface Measured {
  readonly rps: number;
  readonly total: number;
  readonly cpuMicros: number;
  readonly p50: number;
  readonly p99: number;
}

async function measured(child: ChildProcess, run: () => Promise<AutocannonResult>): Promise<Measured> {
  const before = await statsOf(child);
  const result = await run();
  const after = await statsOf(child);
  return {
    rps: result.requests.average,
    total: result.requests.total,
    cpuMicros: after.cpuMicros - before.cpuMicros,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

/** Rounds of one process taken together: mean throughput, CPU per request, the worst round's latency. */
function combine(runs: readonly Measured[]) {
  const total = runs.reduce((sum, run) => sum + run.total, 0);
  return {
    rps: runs.reduce((sum, run) => sum + run.rps, 0) / runs.length,
    rounds: runs.map((run) => round(run.rps, 0)),
    total,
    cpuPerRequest: runs.reduce((sum, run) => sum + run.cpuMicros, 0) / total,
    p50: Math.max(...runs.map((run) => run.p50)),
    p99: Math.max(...runs.map((run) => run.p99)),
  };
}

async function drive(): Promise<void> {
  const loadAtStart = loadavg().map((value) => round(value, 2));
  const duration = env('BENCH_DURATION', 10);
  const sequentialCount = env('BENCH_SEQUENTIAL', 5000);
  const streamCount = env('BENCH_STREAMS', 1000);
  const total = env('BENCH_TOTAL', 100_000);
  const soakSeconds = env('BENCH_SOAK_SECONDS', 0);

  const runtime = process.env.BENCH_RUNTIME === 'tsx' ? 'tsx' : 'compiled';
  const serverRoot = runtime === 'tsx' ? join(REPO, 'src') : compileServer();
  const upstream = await startChild('upstream', UPSTREAM_CHILD);
  const gateway = await startChild('gateway', GATEWAY_CHILD, {
    loader: runtime === 'tsx',
    profile: true,
    nodeFlags: process.env.BENCH_NODE_FLAGS === undefined ? SERVER_NODE_FLAGS : [],
    env: {
      BENCH_SERVER_ROOT: serverRoot,
      BENCH_UPSTREAM: upstream.url,
      BENCH_MASTER_KEY: MASTER_KEY,
      BENCH_MIGRATIONS: join(REPO, 'drizzle'),
    },
  });
  const floor = await startChild('floor', FLOOR_CHILD, { env: { BENCH_UPSTREAM: upstream.url } });
  const created = await fetch(`${gateway.url}/internal/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench' }),
  });
  const apiKey = ((await created.json()) as { key: string }).key;
  const lean = await startChild('lean reference', LEAN_CHILD, {
    loader: runtime === 'tsx',
    nodeFlags: process.env.BENCH_NODE_FLAGS === undefined ? SERVER_NODE_FLAGS : [],
    env: {
      BENCH_SERVER_ROOT: serverRoot,
      BENCH_UPSTREAM: upstream.url,
      BENCH_MIGRATIONS: join(REPO, 'drizzle'),
      BENCH_LEAN_KEY: apiKey,
    },
  });
  const direct = {
    url: upstream.url,
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench-upstream' },
  };
  const through = {
    url: gateway.url,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
  };
  const chat = (model: string, stream = false) =>
    JSON.stringify({
      model,
      messages: [
        { role: 'system', content: 'You are helpful.' },
        { role: 'user', content: 'Hello there, how are you?' },
      ],
      max_tokens: 64,
      ...(stream ? { stream: true } : {}),
    });
  let gatewayRequests = 0;

  process.stdout.write(
    `gateway bench (${runtime}): ${sequentialCount} sequential, ${duration}s at 32 connections, ${streamCount} streams, RSS after ${total} requests\n`,
  );
  const seqDirect = await sequential(direct.url, direct.headers, chat('gpt-4o-mini'), sequentialCount, 'full');
  const seqFloor = await sequential(floor.url, direct.headers, chat('gpt-4o-mini'), sequentialCount, 'full');
  const seqGateway = await sequential(through.url, through.headers, chat('bench-model'), sequentialCount, 'full');
  const serverSide = await serverLatency(gateway.url, Math.min(1000, sequentialCount));
  gatewayRequests += sequentialCount + Math.min(500, Math.ceil(sequentialCount / 10));
  const ttftDirect = await sequential(direct.url, direct.headers, chat('gpt-4o-mini', true), streamCount, 'ttft');
  const ttftFloor = await sequential(floor.url, direct.headers, chat('gpt-4o-mini', true), streamCount, 'ttft');
  const ttftGateway = await sequential(through.url, through.headers, chat('bench-model', true), streamCount, 'ttft');
  gatewayRequests += streamCount + Math.min(500, Math.ceil(streamCount / 10));
  const loadDirect = await load(direct.url, direct.headers, chat('gpt-4o-mini'), duration);
  // The bare proxy, the lean reference and the gateway in alternating rounds, so a slower moment of
  // the machine weighs on all alike; the gateway's ratio to the bare proxy is the throughput target.
  const rounds = env('BENCH_ROUNDS', 3);
  const floorRuns: Measured[] = [];
  const leanRuns: Measured[] = [];
  const gatewayRuns: Measured[] = [];
  const leanUrl = lean.url;
  // The others were warmed by the sequential runs; the lean reference gets as many requests first.
  await loadRequests(leanUrl, through.headers, chat('bench-model'), sequentialCount);
  // Then each serves the measured load, unmeasured, for the same time: a process that has only seen
  // one request at a time is still compiling its concurrent paths (the gateway more than the others:
  // it has more code), and that compiling would count as its CPU per request in the first round.
  const warmup = env('BENCH_WARMUP', 5);
  if (warmup > 0) {
    await load(floor.url, direct.headers, chat('gpt-4o-mini'), warmup);
    await load(leanUrl, through.headers, chat('bench-model'), warmup);
    gatewayRequests += (await load(through.url, through.headers, chat('bench-model'), warmup)).requests.total;
  }
  for (let round = 0; round < rounds; round += 1) {
    floorRuns.push(await measured(floor.child, () => load(floor.url, direct.headers, chat('gpt-4o-mini'), duration)));
    leanRuns.push(await measured(lean.child, () => load(leanUrl, through.headers, chat('bench-model'), duration)));
    gatewayRuns.push(
      await measured(gateway.child, () => load(through.url, through.headers, chat('bench-model'), duration)),
    );
  }
  floor.child.kill();
  lean.child.send({ type: 'stop' });
  const ceiling = await startChild('raw ceiling', RAW_CEILING_CHILD, { env: { BENCH_UPSTREAM: upstream.url } });
  const loadCeiling = await load(ceiling.url, direct.headers, chat('bench-model'), duration);
  ceiling.child.kill();
  const loadFloor = combine(floorRuns);
  const loadGateway = combine(gatewayRuns);
  const loadLean = combine(leanRuns);
  const cpuPerRequest = loadGateway.cpuPerRequest;
  gatewayRequests += loadGateway.total;
  if (gatewayRequests < total) {
    await loadRequests(through.url, through.headers, chat('bench-model'), total - gatewayRequests);
    gatewayRequests = total;
  }
  const after = await statsOf(gateway.child);
  const rssAfter = after.rss;
  const requestsAtReading = gatewayRequests;
  // After the RSS reading: a token limit loads the tokenizer's tables (about 70 MB), which a gateway
  // without token limits never holds; the reading after the comparison shows that cost apart.
  const stageRounds = env('BENCH_STAGE_ROUNDS', 3);
  const stageCount = Math.max(100, Math.floor(sequentialCount / 2));
  const stages = await measureStageOverhead(
    gateway.url,
    MASTER_KEY,
    apiKey,
    (headers, count) => sequential(through.url, headers, chat('bench-model'), count, 'full'),
    { rounds: stageRounds, count: stageCount },
  );
  gatewayRequests +=
    stageRounds * (1 + stages.variants.length) * (stageCount + Math.min(500, Math.ceil(stageCount / 10)));
  const rssWithStages = (await statsOf(gateway.child)).rss;
  if (process.env.BENCH_EXPOSE_GC) {
    const collected = await statsOf(gateway.child, true);
    process.stdout.write(
      `after a full GC: rss ${round(collected.rss / 1_048_576, 1)} MB, heap ${round(collected.heap / 1_048_576, 1)} MB\n`,
    );
  }
  // RSS swings with V8's collections; the live heap after a full collection is what shows a leak.
  const soak: Array<{ seconds: number; requests: number; rss_mb: number; live_heap_mb?: number }> = [];
  const snapshot = (name: string) => {
    const dir = process.env.BENCH_HEAP_SNAPSHOTS;
    if (!dir || soakSeconds === 0) return Promise.resolve();
    return new Promise<void>((done) => {
      const listener = (message: { type: string }) => {
        if (message.type !== 'snapshot') return;
        gateway.child.off('message', listener);
        done();
      };
      gateway.child.on('message', listener);
      gateway.child.send({ type: 'snapshot', file: join(resolve(dir), `gateway-${name}.heapsnapshot`) });
    });
  };
  await snapshot('soak-start');
  for (let elapsed = 0; elapsed < soakSeconds; elapsed += 10) {
    const run = await load(through.url, through.headers, chat('bench-model'), Math.min(10, soakSeconds - elapsed));
    gatewayRequests += run.requests.total;
    const sample = {
      seconds: elapsed + 10,
      requests: gatewayRequests,
      rss_mb: round((await statsOf(gateway.child)).rss / 1_048_576, 1),
    };
    soak.push(
      process.env.BENCH_EXPOSE_GC
        ? { ...sample, live_heap_mb: round((await statsOf(gateway.child, true)).heap / 1_048_576, 1) }
        : sample,
    );
  }
  await snapshot('soak-end');

  const results = {
    machine: { cpus: cpus().length, node: process.version, runtime, load_average_at_start: loadAtStart },
    settings: {
      duration_s: duration,
      sequential: sequentialCount,
      streams: streamCount,
      total_requests: gatewayRequests,
      soak_s: soakSeconds,
    },
    sequential_ms: {
      direct: seqDirect,
      bare_proxy: seqFloor,
      gateway: seqGateway,
      gateway_server_side: serverSide,
      added_p50: round(seqGateway.p50 - seqDirect.p50),
      added_p99: round(seqGateway.p99 - seqDirect.p99),
    },
    policy_stages: stages,
    ttft_ms: {
      direct: ttftDirect,
      bare_proxy: ttftFloor,
      gateway: ttftGateway,
      added_p50: round(ttftGateway.p50 - ttftDirect.p50),
      added_p99: round(ttftGateway.p99 - ttftDirect.p99),
    },
    throughput_32: {
      direct_rps: round(loadDirect.requests.average, 0),
      rounds,
      bare_proxy_rps: round(loadFloor.rps, 0),
      bare_proxy_rounds: loadFloor.rounds,
      bare_proxy_ratio: round(loadFloor.rps / loadDirect.requests.average),
      bare_proxy_cpu_us_per_request: round(loadFloor.cpuPerRequest, 0),
      lean_reference_rps: round(loadLean.rps, 0),
      lean_reference_rounds: loadLean.rounds,
      lean_reference_ratio_to_bare_proxy: round(loadLean.rps / loadFloor.rps),
      lean_reference_cpu_us_per_request: round(loadLean.cpuPerRequest, 0),
      raw_socket_ceiling_rps: round(loadCeiling.requests.average, 0),
      raw_socket_ceiling_ratio: round(loadCeiling.requests.average / loadDirect.requests.average),
      gateway_rps: round(loadGateway.rps, 0),
      gateway_rounds: loadGateway.rounds,
      ratio: round(loadGateway.rps / loadDirect.requests.average),
      ratio_to_bare_proxy: round(loadGateway.rps / loadFloor.rps),
      direct_latency_ms: { p50: loadDirect.latency.p50, p99: loadDirect.latency.p99 },
      gateway_latency_ms: { p50: loadGateway.p50, p99: loadGateway.p99 },
      gateway_cpu_us_per_request: round(cpuPerRequest, 0),
    },
    rss_mb: {
      requests: requestsAtReading,
      after_total: round(rssAfter / 1_048_576, 1),
      heap_used_after_total: round(after.heap / 1_048_576, 1),
      after_policy_stages: round(rssWithStages / 1_048_576, 1),
      soak,
    },
    targets: {
      added_p50_le_0_5ms: seqGateway.p50 - seqDirect.p50 <= 0.5,
      added_p99_le_3ms: seqGateway.p99 - seqDirect.p99 <= 3,
      throughput_vs_bare_proxy_ge_0_7: loadGateway.rps / loadFloor.rps >= 0.7,
      ttft_added_le_1ms: ttftGateway.p50 - ttftDirect.p50 <= 1,
      rss_le_150mb: rssAfter <= 150 * 1_048_576,
      limits_added_p50_le_0_2ms: (stages.variants.find((v) => v.name === 'limits on')?.added_p50_ms ?? 0) <= 0.2,
      pii_policy_cache_added_p50_le_0_3ms:
        (stages.variants.find((v) => v.name === 'PII, content policy and cache on')?.added_p50_ms ?? 0) <= 0.3,
    },
  };

  const rows: string[][] = [
    ['measure', 'direct', 'bare proxy', 'gateway', 'gateway overhead'],
    [
      'sequential p50 (ms)',
      `${seqDirect.p50}`,
      `${seqFloor.p50}`,
      `${seqGateway.p50}`,
      `+${results.sequential_ms.added_p50}`,
    ],
    [
      'sequential p99 (ms)',
      `${seqDirect.p99}`,
      `${seqFloor.p99}`,
      `${seqGateway.p99}`,
      `+${results.sequential_ms.added_p99}`,
    ],
    ['sequential req/s', `${seqDirect.rps}`, `${seqFloor.rps}`, `${seqGateway.rps}`, ''],
    ['in-gateway time p50 / p99 (ms)', '', '', `${serverSide.p50} / ${serverSide.p99}`, ''],
    ...stages.variants.map((variant) => [
      `sequential p50, ${variant.name} (ms; ${stages.rounds} interleaved rounds)`,
      '',
      '',
      `${variant.p50_ms} vs ${stages.baseline_p50_ms}`,
      `${variant.added_p50_ms >= 0 ? '+' : ''}${variant.added_p50_ms}`,
    ]),
    [
      'stream TTFT p50 (ms)',
      `${ttftDirect.p50}`,
      `${ttftFloor.p50}`,
      `${ttftGateway.p50}`,
      `+${results.ttft_ms.added_p50}`,
    ],
    [
      'stream TTFT p99 (ms)',
      `${ttftDirect.p99}`,
      `${ttftFloor.p99}`,
      `${ttftGateway.p99}`,
      `+${results.ttft_ms.added_p99}`,
    ],
    [
      '32 conns req/s',
      `${results.throughput_32.direct_rps}`,
      `${results.throughput_32.bare_proxy_rps}`,
      `${results.throughput_32.gateway_rps}`,
      `x${results.throughput_32.ratio} of direct, x${results.throughput_32.ratio_to_bare_proxy} of bare`,
    ],
    [
      `32 conns req/s per round (${rounds}, interleaved)`,
      '',
      loadFloor.rounds.join(' '),
      loadGateway.rounds.join(' '),
      '',
    ],
    [
      `32 conns, lean reference req/s per round (${rounds}, interleaved)`,
      '',
      '',
      loadLean.rounds.join(' '),
      `x${results.throughput_32.lean_reference_ratio_to_bare_proxy} of bare`,
    ],
    [
      'CPU per request at 32 conns, lean reference (µs)',
      '',
      '',
      `${results.throughput_32.lean_reference_cpu_us_per_request}`,
      `+${round(loadLean.cpuPerRequest - loadFloor.cpuPerRequest, 0)} over bare`,
    ],
    [
      '32 conns, raw-socket ceiling req/s',
      '',
      '',
      `${results.throughput_32.raw_socket_ceiling_rps}`,
      `x${results.throughput_32.raw_socket_ceiling_ratio}`,
    ],
    [
      '32 conns p50 / p99 (ms)',
      `${loadDirect.latency.p50} / ${loadDirect.latency.p99}`,
      `${loadFloor.p50} / ${loadFloor.p99}`,
      `${loadGateway.p50} / ${loadGateway.p99}`,
      '',
    ],
    [
      'CPU per request at 32 conns (µs)',
      '',
      `${round(loadFloor.cpuPerRequest, 0)}`,
      `${round(cpuPerRequest, 0)}`,
      `+${round(cpuPerRequest - loadFloor.cpuPerRequest, 0)}`,
    ],
    [
      `gateway RSS after ${requestsAtReading} req (MB)`,
      '',
      '',
      `${results.rss_mb.after_total}`,
      `heap ${results.rss_mb.heap_used_after_total}`,
    ],
    [
      'gateway RSS after the policy-stage rounds (MB)',
      '',
      '',
      `${results.rss_mb.after_policy_stages}`,
      'tokenizer loaded',
    ],
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: readonly string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  const table = [
    line(rows[0]!),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.slice(1).map(line),
  ].join('\n');
  process.stdout.write(`\n${table}\n\ntargets: ${JSON.stringify(results.targets)}\n`);
  if (soak.length > 0)
    process.stdout.write(`soak RSS (MB): ${soak.map((s) => `${s.seconds}s=${s.rss_mb}`).join(' ')}\n`);
  if (soak.some((s) => s.live_heap_mb !== undefined))
    process.stdout.write(
      `soak live heap after a full GC (MB): ${soak.map((s) => `${s.seconds}s=${s.live_heap_mb}`).join(' ')}\n`,
    );
  mkdirSync(join(HERE, 'results'), { recursive: true });
  writeFileSync(join(HERE, 'results', 'gateway.json'), `${JSON.stringify({ ...results, table }, null, 2)}\n`);
  process.stdout.write('written bench/results/gateway.json\n');

  gateway.child.send({ type: 'stop' });
  await new Promise((resolve) => gateway.child.once('exit', resolve));
  upstream.child.kill();
}

await drive();
