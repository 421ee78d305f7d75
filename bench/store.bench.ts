// Benchmark of the versioned document store (`npm run bench:store`).
//
// A namespace of 10,000 documents of about 256 bytes, then BENCH_REVISIONS (default 100,000) revisions
// changing 1-3 documents each, built through the engine directly (batched into large transactions so the
// build does not wait on one fsync per revision). Everything measured afterwards goes over HTTP on
// loopback to the real store app (auth on), which runs in a child process (this file with `--serve`)
// so that the client's work does not count as the server's. Prints a table and writes
// bench/results/store.json.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { configSchema } from '../src/server/config/schema.js';
import { openDatabase } from '../src/server/db/connection.js';
import { buildStoreApp } from '../src/server/store/app.js';
import { StoreEngine } from '../src/server/store/engine/store-engine.js';

const DOCUMENTS = 10_000;
const REVISIONS = Number(process.env.BENCH_REVISIONS ?? 100_000);
const EARLY_HISTORY = Math.min(1_000, REVISIONS);
const OLD_REVISION = Math.floor(EARLY_HISTORY / 2);
const APPLY_SAMPLES = Number(process.env.BENCH_APPLY_SAMPLES ?? 2_000);
const READ_SAMPLES = Number(process.env.BENCH_READ_SAMPLES ?? 30);
const CONCURRENCY = 16;
const TOKEN = 'st-bench-token-0123456789abcdef';
const NAMESPACE = 'bench/config';

// Deterministic pseudo-random numbers (mulberry32), so runs are comparable.
let seed = 0x5eed;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

const keyOf = (i: number): string => `service-${String(i).padStart(5, '0')}.yaml`;
let version = 0;
/** About 256 bytes of config-like text, unique per call. */
function contentOf(i: number): string {
  version++;
  const head = `name: service-${i}\nversion: ${version}\nreplicas: ${1 + Math.floor(random() * 9)}\nimage: registry.local/app:${random().toString(36).slice(2, 10)}\n`;
  return head + `note: ${'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(8)}`.slice(0, 256 - head.length);
}

function randomChange(): { key: string; content: string }[] {
  const count = 1 + Math.floor(random() * 3);
  const picked = new Set<number>();
  while (picked.size < count) picked.add(Math.floor(random() * DOCUMENTS));
  return [...picked].map((i) => ({ key: keyOf(i), content: contentOf(i) }));
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
const summarise = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), n: samples.length };
};
const round = (value: number, digits = 2): number => Number(value.toFixed(digits));

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-store-'));
  const file = join(dir, 'gatehouse.db');
  const database = openDatabase(file);
  // No state cache here: the in-process timings below measure building the state JSON every time.
  const engine = new StoreEngine(database.sqlite, { stateCacheChars: 0 });
  const scope = { namespace: NAMESPACE, branch: 'main' };
  const log = (message: string) => process.stderr.write(`${message}\n`);

  // ── build ───────────────────────────────────────────────────────────────
  let started = performance.now();
  engine.applyDocuments(
    scope,
    Array.from({ length: DOCUMENTS }, (_, i) => ({ key: keyOf(i), content: contentOf(i) })),
    { message: 'initial load' },
  );
  let head = 1;
  // One outer transaction per 1,000 applies: each apply still runs whole (as a savepoint), but the build
  // does not wait for 100,000 fsyncs.
  const batch = database.sqlite.transaction((n: number) => {
    for (let r = 0; r < n; r++) head = engine.applyDocuments(scope, randomChange()).revision;
  });
  const build = async (target: number) => {
    while (head < target + 1) {
      batch(Math.min(1_000, target + 1 - head));
      if (head % 10_000 < 1_000) log(`  history: ${head} revisions`);
    }
  };
  await build(EARLY_HISTORY);
  const earlyBuildMs = performance.now() - started;

  // ── server ──────────────────────────────────────────────────────────────
  const server = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve', file], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const base = await new Promise<string>((resolve, reject) => {
    createInterface({ input: server.stdout }).once('line', resolve);
    server.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const pool = new Pool(base, { connections: CONCURRENCY, pipelining: 1 });
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const call = async (
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ ms: number; bytes: number; json: () => unknown }> => {
    const start = performance.now();
    const response = await pool.request({
      method,
      path,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.body.text();
    const ms = performance.now() - start;
    if (response.statusCode !== 200) throw new Error(`${method} ${path}: ${response.statusCode} ${text.slice(0, 300)}`);
    return { ms, bytes: text.length, json: () => JSON.parse(text) };
  };
  const serverMs = async (route: string): Promise<number[]> =>
    ((await call('GET', '/bench/server-ms')).json() as Record<string, number[]>)[route] ?? [];
  const serverSide = async (route: string, from: number) => summarise((await serverMs(route)).slice(from));
  // `path` may vary per sample: the store caches the state JSON of each revision it has served, so
  // reading distinct revisions measures the cold cost, and reading one revision again the warm cost.
  const timeReads = async (
    label: string,
    method: 'GET' | 'POST',
    path: string | ((i: number) => string),
    body?: unknown,
    between?: () => void,
  ) => {
    const pathOf = typeof path === 'string' ? () => path : path;
    const route = `${method} ${pathOf(0).split('?')[0]}`;
    // Warm up (JIT, SQLite's page cache) on paths outside the measured ones.
    for (let i = 1; i <= 3; i++) await call(method, pathOf(-i), body);
    const from = (await serverMs(route)).length;
    const client: number[] = [];
    let bytes = 0;
    for (let i = 0; i < READ_SAMPLES; i++) {
      between?.();
      const result = await call(method, pathOf(i), body);
      client.push(result.ms);
      bytes = result.bytes;
    }
    log(`  ${label}: ${summarise(client).p50} ms`);
    return { client: summarise(client), server: await serverSide(route, from), response_bytes: bytes };
  };
  const stateAt = (revision: number) =>
    `/v1/state?namespace=${encodeURIComponent(NAMESPACE)}&branch=main&revision=${revision}`;

  log(`state at revision ${OLD_REVISION} with ${EARLY_HISTORY} revisions of history`);
  // Even revisions now, odd ones later: both cold, at the same age.
  const stateOldEarly = await timeReads('state old (early)', 'GET', (i) => stateAt(OLD_REVISION + 2 * i));

  // ── the long history ────────────────────────────────────────────────────
  log(`building ${REVISIONS} revisions of history`);
  started = performance.now();
  await build(REVISIONS);
  const buildMs = earlyBuildMs + (performance.now() - started);

  log('reads at full history');
  // The engine alone, in this process: the cost of building a 10,000-document state, without HTTP.
  const inProcess = (label: string, read: (i: number) => unknown) => {
    read(0);
    const samples: number[] = [];
    for (let i = 0; i < READ_SAMPLES; i++) {
      const start = performance.now();
      read(i);
      samples.push(performance.now() - start);
    }
    log(`  engine ${label}: ${summarise(samples).p50} ms`);
    return summarise(samples);
  };
  const engineState = {
    head: inProcess('state head', () => engine.stateJson(scope)),
    old: inProcess('state old', (i) => engine.stateJson(scope, { revision: OLD_REVISION + i })),
    middle: inProcess('state middle', (i) => engine.stateJson(scope, { revision: Math.floor(head * 0.45) + i })),
  };
  const stateOldLate = await timeReads('state old (late)', 'GET', (i) => stateAt(OLD_REVISION + 2 * i + 1));
  const headPath = `/v1/state?namespace=${encodeURIComponent(NAMESPACE)}&branch=main`;
  // A new head before each read: every read is cold.
  const stateHeadCold = await timeReads('state head (cold)', 'GET', headPath, undefined, () => {
    head = engine.applyDocuments(scope, randomChange()).revision;
  });
  const stateHead = await timeReads('state head (warm)', 'GET', headPath);
  const middle = Math.floor(head * 0.55);
  const stateMiddle = await timeReads('state middle', 'GET', (i) => stateAt(middle + i));
  const recent = head - 500;
  const stateRecent = await timeReads('state head-500', 'GET', (i) => stateAt(recent - i));
  const diffRecent = await timeReads('diff head vs head-10', 'POST', '/v1/diff', { scope, revision_id: head - 10 });
  const diffPreview = await timeReads('diff preview', 'POST', '/v1/diff', { scope, documents: randomChange() });
  const diffOld = await timeReads('diff head vs old', 'POST', '/v1/diff', { scope, revision_id: OLD_REVISION });
  const logPage = await timeReads(
    'log page',
    'GET',
    `/v1/log?namespace=${encodeURIComponent(NAMESPACE)}&branch=main&limit=20`,
  );

  // ── applies over HTTP ───────────────────────────────────────────────────
  log('applies over HTTP');
  const applyFrom = (await serverMs('POST /v1/apply')).length;
  const applyClient: number[] = [];
  let sequentialStart = performance.now();
  for (let i = 0; i < APPLY_SAMPLES; i++)
    applyClient.push((await call('POST', '/v1/apply', { scope, documents: randomChange() })).ms);
  const sequentialSeconds = (performance.now() - sequentialStart) / 1000;
  const applyServer = await serverSide('POST /v1/apply', applyFrom);
  sequentialStart = performance.now();
  let remaining = APPLY_SAMPLES;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (remaining-- > 0) await call('POST', '/v1/apply', { scope, documents: randomChange() });
    }),
  );
  const concurrentSeconds = (performance.now() - sequentialStart) / 1000;

  // ── size ────────────────────────────────────────────────────────────────
  const size = () => {
    database.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const pageSize = database.sqlite.pragma('page_size', { simple: true }) as number;
    const pages = database.sqlite.pragma('page_count', { simple: true }) as number;
    const free = database.sqlite.pragma('freelist_count', { simple: true }) as number;
    const contentBytes = database.sqlite
      .prepare('SELECT sum(length(CAST(content AS BLOB))) FROM store_blobs')
      .pluck()
      .get() as number;
    return {
      file_bytes: statSync(file).size,
      used_bytes: (pages - free) * pageSize,
      distinct_content_bytes: contentBytes,
      ratio: round(((pages - free) * pageSize) / contentBytes, 3),
    };
  };
  const sizeBefore = size();

  // ── gc ──────────────────────────────────────────────────────────────────
  log('gc');
  const revisionsBefore = database.sqlite.prepare('SELECT count(*) FROM store_revisions').pluck().get() as number;
  const gcStart = performance.now();
  const gc = (await call('POST', '/v1/gc', { keep: 10 })).json() as { pruned: number };
  const gcMs = performance.now() - gcStart;
  // The server deletes unreferenced contents in slices after answering: size counts once they are gone.
  const listed = database.sqlite.prepare('SELECT count(*) FROM store_unreferenced_blobs').pluck();
  while ((listed.get() as number) > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  const sweepMs = performance.now() - gcStart - gcMs;
  const sizeAfter = size();
  const stateAfterGc = await timeReads('state head after gc', 'GET', headPath);

  await pool.close();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  database.close();
  rmSync(dir, { recursive: true, force: true });

  const results = {
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version },
    setup: { documents: DOCUMENTS, revisions: REVISIONS, build_seconds: round(buildMs / 1000, 1), head_revision: head },
    apply: {
      client_ms: summarise(applyClient),
      server_ms: applyServer,
      sequential_revisions_per_second: round(APPLY_SAMPLES / sequentialSeconds, 0),
      concurrent_revisions_per_second: round(APPLY_SAMPLES / concurrentSeconds, 0),
      concurrency: CONCURRENCY,
    },
    state: {
      old_revision: OLD_REVISION,
      at_old_with_1k_history: stateOldEarly,
      at_old_with_full_history: stateOldLate,
      old_revision_ratio: round(stateOldLate.client.p50 / stateOldEarly.client.p50, 3),
      head_cold: stateHeadCold,
      head_warm: stateHead,
      middle: stateMiddle,
      head_minus_500: stateRecent,
      head_after_gc: stateAfterGc,
      engine_in_process_ms: engineState,
    },
    diff: { head_vs_head_minus_10: diffRecent, preview_3_documents: diffPreview, head_vs_old: diffOld },
    log: { page_of_20: logPage },
    size: { before_gc: sizeBefore, after_gc: sizeAfter },
    gc: {
      keep: 10,
      revisions_before: revisionsBefore,
      pruned: gc.pruned,
      ms: round(gcMs, 0),
      sweep_ms: round(sweepMs, 0),
    },
  };

  const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'store.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  printTable(results);
  console.log(`\nwritten to ${out}`);
}

function printTable(r: {
  setup: { revisions: number; build_seconds: number };
  apply: {
    client_ms: { p50: number; p99: number };
    server_ms: { p50: number; p99: number };
    sequential_revisions_per_second: number;
    concurrent_revisions_per_second: number;
    concurrency: number;
  };
  state: Record<string, unknown> & { old_revision: number; old_revision_ratio: number };
  diff: Record<
    string,
    { client: { p50: number; p99: number }; server: { p50: number; p99: number }; response_bytes: number }
  >;
  log: Record<
    string,
    { client: { p50: number; p99: number }; server: { p50: number; p99: number }; response_bytes: number }
  >;
  size: {
    before_gc: { used_bytes: number; distinct_content_bytes: number; ratio: number };
    after_gc: { used_bytes: number; distinct_content_bytes: number; ratio: number };
  };
  gc: { pruned: number; ms: number; sweep_ms: number; revisions_before: number };
}): void {
  const rows: [string, string, string][] = [];
  const timing = (
    label: string,
    t: { client: { p50: number; p99: number }; server: { p50: number; p99: number } },
    target = '',
  ) =>
    rows.push([
      label,
      `p50 ${t.client.p50} / p99 ${t.client.p99} ms (server p50 ${t.server.p50} / p99 ${t.server.p99})`,
      target,
    ]);
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  rows.push(['history built', `${r.setup.revisions} revisions in ${r.setup.build_seconds} s`, '']);
  rows.push([
    'apply (1 client)',
    `p50 ${r.apply.client_ms.p50} / p99 ${r.apply.client_ms.p99} ms (server p50 ${r.apply.server_ms.p50} / p99 ${r.apply.server_ms.p99})`,
    'server p50 < 2 ms',
  ]);
  rows.push([
    'apply throughput',
    `${r.apply.sequential_revisions_per_second} rev/s sequential, ${r.apply.concurrent_revisions_per_second} rev/s with ${r.apply.concurrency} in flight`,
    '',
  ]);
  const state = r.state as unknown as Record<
    string,
    { client: { p50: number; p99: number }; server: { p50: number; p99: number } }
  >;
  timing(`state ~@${r.state.old_revision}, 1k history`, state.at_old_with_1k_history, '< 50 ms');
  timing(`state ~@${r.state.old_revision}, full history`, state.at_old_with_full_history, '< 50 ms');
  rows.push(['  ratio full / 1k', String(r.state.old_revision_ratio), '< 1.5']);
  timing('state at head (cold)', state.head_cold, '< 50 ms');
  timing('state at head (cached)', state.head_warm);
  timing('state mid-history', state.middle, '< 50 ms');
  timing('state head-500', state.head_minus_500, '< 50 ms');
  const engineMs = r.state.engine_in_process_ms as unknown as Record<string, { p50: number; p99: number }>;
  rows.push([
    '  engine only, no HTTP',
    `head p50 ${engineMs.head.p50}, old p50 ${engineMs.old.p50}, middle p50 ${engineMs.middle.p50} ms`,
    '',
  ]);
  timing('diff head vs head-10', r.diff.head_vs_head_minus_10);
  timing('diff preview (3 docs)', r.diff.preview_3_documents);
  timing(`diff head vs @${r.state.old_revision}`, r.diff.head_vs_old);
  timing('log (20 entries)', r.log.page_of_20);
  rows.push([
    'db size / content',
    `${mb(r.size.before_gc.used_bytes)} / ${mb(r.size.before_gc.distinct_content_bytes)} = ${r.size.before_gc.ratio}`,
    '<= 1.5',
  ]);
  rows.push([
    'gc keep=10',
    `${r.gc.pruned} of ${r.gc.revisions_before} revisions in ${r.gc.ms} ms, contents swept ${r.gc.sweep_ms} ms later`,
    '',
  ]);
  rows.push([
    'db size after gc',
    `${mb(r.size.after_gc.used_bytes)} / ${mb(r.size.after_gc.distinct_content_bytes)} = ${r.size.after_gc.ratio}`,
    '',
  ]);
  const width = [
    Math.max(...rows.map((x) => x[0].length)),
    Math.max(...rows.map((x) => x[1].length)),
    Math.max(...rows.map((x) => x[2].length)),
  ];
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(width[i])).join(' | ')} |`;
  console.log(line(['measure', 'result', 'target']));
  console.log(`|${width.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}

/** The store app over `file`, for the parent to measure: prints its address, stops on SIGTERM. */
async function serve(file: string): Promise<void> {
  const database = openDatabase(file);
  const config = configSchema.parse({
    server: { data_dir: dirname(file), log_level: 'silent' },
    store: { auth: { enabled: true } },
  });
  const app = await buildStoreApp({
    config,
    database,
    tokens: [{ name: 'bench', token: TOKEN, verbs: ['read', 'write', 'admin'], namespaces: ['*'] }],
  });
  // Server-side latency per route: from the request's arrival to the last byte of the answer written.
  const serverMs: Record<string, number[]> = {};
  app.addHook('onResponse', async (request, reply) => {
    if (request.url.startsWith('/bench/')) return;
    (serverMs[`${request.method} ${request.routeOptions.url}`] ??= []).push(reply.elapsedTime);
  });
  app.get('/bench/server-ms', async () => serverMs);
  process.stdout.write(`${await app.listen({ port: 0, host: '127.0.0.1' })}\n`);
  // Stop with the parent, however it ends: its end of this pipe closes.
  process.stdin.on('end', () => process.exit(0)).resume();
  process.once('SIGTERM', () => {
    void app.close().then(() => {
      database.close();
      process.exit(0);
    });
  });
}

if (process.argv[2] === '--serve') await serve(process.argv[3]);
else
  await main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
