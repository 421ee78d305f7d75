import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config/load.js';
import { issueKey, spawnHeadless, type HeadlessProcess } from '../../support/headless-process.js';
import { metricValue } from '../../support/metric-value.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../../support/upstreams/index.js';

const MASTER = 'gk-master-large-answers-0123456789';
const UPSTREAM_KEY = 'sk-upstream-large-answers-0123456789';
/** The header a whole answer carries when the cache did not keep it. */
const NOT_KEPT = 'x-gatehouse-cache-not-kept';

interface LogLine {
  readonly level: number;
  readonly msg: string;
}

/** Distinct inputs, as an indexer sends a batch of document chunks. */
const batch = (name: string, size: number): string[] =>
  Array.from({ length: size }, (_, index) => `${name} chunk ${index}: the quick brown fox`);

/**
 * Large answers and the response cache, through the headless server, the official openai SDK and a
 * local upstream answering 1536-dimension embeddings: an indexer's batch (1,000 inputs, base64, the
 * SDK's default) is kept with the shipped settings; an answer over `max_entry_bytes` says so in its
 * headers and in the log; and the cache's sizes are UTF-8 bytes, as their names say.
 */
describe('large answers in the response cache', () => {
  let dir: string;
  let upstream: OpenAIUpstream;
  let server: HeadlessProcess;
  let client: OpenAI;
  let key: string;

  const admin = async (method: string, path: string, body?: unknown): Promise<any> => {
    const response = await fetch(`${server.gatewayUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    return response.json();
  };
  /** The cache's counters once the answers just sent were kept (keeping runs after the answer went out). */
  const statsAfterKeeping = async (entries: number): Promise<any> => {
    for (let tries = 0; tries < 50; tries += 1) {
      const { stats } = await admin('GET', '/internal/cache');
      if (stats.entries >= entries) return stats;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the cache did not reach ${entries} entries`);
  };
  const tooLargeLines = (): LogLine[] =>
    server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine)
      .filter((line) => line.msg.includes('answer not kept'));
  const embed = (input: string[]) =>
    client.embeddings.create({ model: 'text-embedding-3-small', input, dimensions: 1536 }).withResponse();

  beforeAll(async () => {
    upstream = await startOpenAIUpstream({ apiKey: UPSTREAM_KEY });
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-cache-large-'));
    const config = join(dir, 'gatehouse.json');
    writeFileSync(
      config,
      JSON.stringify({
        llm: { allowed_models: ['gpt-4o-mini', 'text-embedding-3-small'] },
        providers: { openai: { base_url: upstream.url, api_key: UPSTREAM_KEY } },
        cache: { enabled: true, ttl_seconds: 600 },
      }),
    );
    server = await spawnHeadless({
      GATEHOUSE_CONFIG: config,
      GATEHOUSE_DATA_DIR: join(dir, 'data'),
      PROXY_MASTER_KEY: MASTER,
    });
    key = (await issueKey(server.gatewayUrl, MASTER, { scopes: ['chat', 'embeddings'] })).key;
    client = new OpenAI({ baseURL: `${server.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });
  });
  beforeEach(async () => {
    upstream.reset();
    await admin('PUT', '/internal/cache', { reset: true });
    await admin('POST', '/internal/cache/purge', {});
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited();
    await upstream?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a 1,000-input base64 batch at 1536 dimensions with the default settings: the second is a hit', async () => {
    const first = await embed(batch('kept', 1000));
    expect(first.response.headers.get('x-gatehouse-cache')).toBe('miss');
    expect(first.response.headers.get(NOT_KEPT)).toBeNull();
    expect(first.data.data).toHaveLength(1000);
    expect(first.data.data[0]!.embedding).toHaveLength(1536);
    // About 8 MB: twice the 4 MiB the cache kept at most before.
    const stats = await statsAfterKeeping(1);
    expect(stats.bytes).toBeGreaterThan(8_000_000);
    expect(stats.not_kept.too_large).toBe(0);

    const second = await embed(batch('kept', 1000));
    expect(second.response.headers.get('x-gatehouse-cache')).toBe('hit');
    expect(second.data.data).toEqual(first.data.data);
    expect(upstream.requests).toHaveLength(1);
    expect(tooLargeLines()).toEqual([]);
  });

  it('says an answer over max_entry_bytes was not kept: in a header on every such answer, in the log once a minute', async () => {
    await admin('PUT', '/internal/cache', { max_entry_bytes: 1_000_000 });
    const input = batch('too large', 1000);
    const first = await embed(input);
    expect(first.response.headers.get('x-gatehouse-cache')).toBe('miss');
    expect(first.response.headers.get(NOT_KEPT)).toBe('too_large');
    const second = await embed(input);
    expect(second.response.headers.get('x-gatehouse-cache')).toBe('miss');
    expect(second.response.headers.get(NOT_KEPT)).toBe('too_large');
    expect(upstream.requests).toHaveLength(2);
    expect((await admin('GET', '/internal/cache')).stats.not_kept.too_large).toBe(2);

    const size = Number(first.response.headers.get('content-length'));
    expect(size).toBeGreaterThan(1_000_000);
    // One line for the two answers: a batch job re-sending them would otherwise write one per request.
    const lines = tooLargeLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]!.level).toBe(40);
    expect(lines[0]!.msg).toContain(
      `answer not kept (endpoint embeddings, model text-embedding-3-small, ${size} bytes): larger than`,
    );
    expect(lines[0]!.msg).toContain('cache.max_entry_bytes (1000000)');
    // Sizes and names only: never what was embedded.
    expect(server.output()).not.toContain('too large chunk');
  });

  it('counts UTF-8 bytes: an answer in CJK and emoji takes its bytes, in the admin view and the metric', async () => {
    const answer = await fetch(`${server.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-4o-mini',
        temperature: 0,
        messages: [{ role: 'user', content: '你好，世界！缓存按字节计算 🙂🚀' }],
      }),
    });
    const text = await answer.text();
    expect(answer.headers.get('x-gatehouse-cache')).toBe('miss');
    const bytes = Buffer.byteLength(text);
    expect(bytes).toBeGreaterThan(text.length);
    expect((await statsAfterKeeping(1)).bytes).toBe(bytes);
    const metrics = await (
      await fetch(`${server.gatewayUrl}/metrics`, { headers: { authorization: `Bearer ${MASTER}` } })
    ).text();
    expect(metricValue(metrics, 'gateway_cache_bytes')).toBe(bytes);
    expect(metrics).toContain('# HELP gateway_cache_bytes Bytes (UTF-8)');
  });
});

describe('cache size settings in the configuration file', () => {
  const cacheOf = (cache: Record<string, unknown>) =>
    loadConfig({ env: { GATEHOUSE_DATA_DIR: join(tmpdir(), 'gatehouse-unused') }, overrides: { cache } }).config.cache;

  it('keeps answers of up to 40 MiB by default, or up to max_bytes when that is smaller', () => {
    expect(cacheOf({}).max_entry_bytes).toBe(40 * 1024 ** 2);
    expect(cacheOf({ max_bytes: 16 * 1024 ** 2 }).max_entry_bytes).toBe(16 * 1024 ** 2);
  });

  it('refuses a max_entry_bytes over max_bytes, as the admin API does', () => {
    expect(() => cacheOf({ max_bytes: 2048, max_entry_bytes: 4096 })).toThrow(
      'cache.max_entry_bytes: must not exceed max_bytes (2048), got 4096',
    );
  });
});
