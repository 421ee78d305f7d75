import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../src/server/db/connection.js';
import { AuditRepository } from '../../../src/server/gateway/accounting/audit.repository.js';
import { PriceTable } from '../../../src/server/gateway/accounting/pricing.js';
import { UsageRecorder } from '../../../src/server/gateway/accounting/usage-recorder.js';
import { UsageRepository } from '../../../src/server/gateway/accounting/usage.repository.js';
import { GatewayEventBus } from '../../../src/server/gateway/traffic/event-bus.js';
import {
  jsonBody,
  MAX_BODY_CHARS,
  TrafficLog,
  type TrafficRecord,
} from '../../../src/server/gateway/traffic/traffic-log.js';
import { usageEntry as entry } from './usage-entry-fixture.js';

describe('usage recorder', () => {
  let dir: string;
  let database: DatabaseHandle;
  let recorder: UsageRecorder;
  let usage: UsageRepository;
  const count = () => (database.sqlite.prepare('SELECT COUNT(*) AS n FROM gateway_usage').get() as { n: number }).n;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-usage-'));
    database = openDatabase(join(dir, 'db.sqlite'));
    usage = new UsageRepository(database.sqlite);
    recorder = new UsageRecorder(usage, database.sqlite, usage, new AuditRepository(database.sqlite), {
      flushIntervalMs: 20,
      maxBatch: 5,
    });
  });
  afterEach(() => {
    recorder.close();
    database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds rows until the interval passes or the batch fills', async () => {
    recorder.record(entry(1));
    expect(count()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(count()).toBe(1);
    for (let i = 2; i <= 6; i += 1) recorder.record(entry(i));
    expect(count()).toBe(6);
  });

  it('keeps rows while another process holds the lock, the oldest dropped past the bound, and writes them after', async () => {
    const other = new Database(database.file);
    const dropped: number[] = [];
    const told: Array<{ state: string; rows: number }> = [];
    database.lock.configure({ waitMs: 30, probeMs: 20 });
    const held = new UsageRecorder(usage, database.sqlite, usage, new AuditRepository(database.sqlite), {
      maxBatch: 3,
      maxHeldRows: 4,
      lock: database.lock,
      onError: (_error, rows) => dropped.push(rows),
      onHeld: (event) => told.push(event),
    });
    try {
      other.exec('BEGIN IMMEDIATE');
      for (let i = 1; i <= 6; i += 1) held.record(entry(i));
      expect(database.lock.held).toBe(true);
      expect(dropped).toEqual([1, 1]);
      expect(count()).toBe(0);
      other.exec('COMMIT');
      await vi.waitFor(() => expect(count()).toBe(4));
      // Said once when rows began to wait (only memory holds them), and once when they were written.
      expect(told).toEqual([
        { state: 'waiting', rows: 3, cause: 'locked' },
        { state: 'written', rows: 4, cause: 'locked' },
      ]);
      const ids = database.sqlite.prepare('SELECT request_id AS id FROM gateway_usage ORDER BY id').all();
      expect(ids).toEqual(['r3', 'r4', 'r5', 'r6'].map((id) => ({ id })));
    } finally {
      held.close();
      other.close();
    }
  });

  it('keeps rows a full disk refused, says so, and writes them once there is room (they were dropped for good)', async () => {
    // A connection that may not grow the file past its size now: every insert that needs a page fails
    // with SQLITE_FULL, as on a full disk.
    const batchConnection = new Database(database.file);
    const pages = batchConnection.pragma('page_count', { simple: true }) as number;
    batchConnection.pragma(`max_page_count = ${pages}`);
    const dropped: number[] = [];
    const told: Array<{ state: string; rows: number; cause: string }> = [];
    const full = new UsageRecorder(
      new UsageRepository(batchConnection),
      database.sqlite,
      usage,
      new AuditRepository(database.sqlite),
      {
        maxBatch: 50,
        unwritableRetryMs: 20,
        onError: (_error, rows) => dropped.push(rows),
        onHeld: (event) => told.push(event),
      },
    );
    try {
      const long = 'x'.repeat(2000);
      for (let i = 1; i <= 50; i += 1) full.record(entry(i, { requestedModel: long }));
      expect(full.writable).toBe(false);
      expect(count()).toBe(0);
      // Rows recorded meanwhile wait with them, without a failing write each.
      for (let i = 51; i <= 60; i += 1) full.record(entry(i, { requestedModel: long }));
      expect(full.pending).toBe(60);
      batchConnection.pragma('max_page_count = 1073741823');
      await vi.waitFor(() => expect(count()).toBe(60));
      expect(full.writable).toBe(true);
      expect(dropped).toEqual([]);
      expect(told).toEqual([
        { state: 'waiting', rows: 50, cause: 'unwritable' },
        { state: 'written', rows: 60, cause: 'unwritable' },
      ]);
    } finally {
      full.close();
      batchConnection.close();
    }
  });

  it('writes what a little room takes, a batch at a time, and says once how many rows the bound dropped', async () => {
    const batchConnection = new Database(database.file);
    const pages = batchConnection.pragma('page_count', { simple: true }) as number;
    batchConnection.pragma(`max_page_count = ${pages}`);
    const dropped: number[] = [];
    const full = new UsageRecorder(
      new UsageRepository(batchConnection),
      database.sqlite,
      usage,
      new AuditRepository(database.sqlite),
      { maxBatch: 10, maxHeldRows: 40, unwritableRetryMs: 20, onError: (_error, rows) => dropped.push(rows) },
    );
    try {
      const long = 'x'.repeat(2000);
      for (let i = 1; i <= 10; i += 1) full.record(entry(i, { requestedModel: long }));
      expect(full.writable).toBe(false);
      // 45 more while the disk is full: 15 past the bound, dropped oldest first and said once.
      for (let i = 11; i <= 55; i += 1) full.record(entry(i, { requestedModel: long }));
      expect(full.pending).toBe(40);
      expect(dropped).toEqual([]);
      // Room for a few batches, not for all 40 rows at once.
      batchConnection.pragma(`max_page_count = ${pages + 12}`);
      await vi.waitFor(() => expect(count()).toBeGreaterThan(0));
      expect(dropped).toEqual([15]);
      expect(count()).toBeLessThan(40);
      expect(full.writable).toBe(false);
      batchConnection.pragma('max_page_count = 1073741823');
      await vi.waitFor(() => expect(full.writable).toBe(true));
      expect(count()).toBe(40);
      const ids = database.sqlite.prepare('SELECT request_id AS id FROM gateway_usage ORDER BY id LIMIT 1').get();
      expect(ids).toEqual({ id: 'r16' });
    } finally {
      full.close();
      batchConnection.close();
    }
  });

  it('commits a row and its audit event immediately with commitNow', () => {
    recorder.commitNow(entry(1, { endpoint: 'embeddings' }), {
      createdAt: 1,
      actor: 'key:k1',
      action: 'embeddings.create',
      target: 'm',
      requestId: 'r1',
      details: { inputs: 1 },
    });
    expect(count()).toBe(1);
    expect(new AuditRepository(database.sqlite).list({ limit: 10 })[0]).toMatchObject({
      action: 'embeddings.create',
      details: { inputs: 1 },
    });
  });

  it('aggregates per bucket and group', () => {
    for (let i = 0; i < 120; i += 1)
      recorder.record(entry(i, { model: i % 2 ? 'a' : 'b', status: i % 10 === 0 ? 502 : 200 }));
    recorder.flush();
    const result = usage.aggregate({ group_by: 'model', bucket: 'minute' }, 0, Number.MAX_SAFE_INTEGER);
    expect(result.totals).toMatchObject({
      requests: 120,
      errors: 12,
      prompt_tokens: 1200,
      completion_tokens: 600,
      total_tokens: 1800,
    });
    expect(new Set(result.data.map((p) => p.group))).toEqual(new Set(['a', 'b']));
    for (const point of result.data) expect(Date.parse(point.bucket_start) % 60_000).toBe(0);
  });
});

describe('prices', () => {
  it('cost by public name, then the upstream name, 0 when unpriced', () => {
    const prices = new PriceTable({ 'gpt-4o': { input_per_mtok: 2.5, output_per_mtok: 10 } });
    expect(prices.cost('gpt-4o', null, { promptTokens: 1_000_000, completionTokens: 100_000 })).toBeCloseTo(3.5);
    expect(prices.cost('my-alias-model', 'gpt-4o', { promptTokens: 1000, completionTokens: 0 })).toBeCloseTo(0.0025);
    expect(prices.cost('demo/echo', 'echo', { promptTokens: 1000, completionTokens: 1000 })).toBe(0);
  });
});

describe('traffic log', () => {
  const record = (n: number, body: unknown = { model: 'm', n }): TrafficRecord => ({
    request_id: `r${n}`,
    startedAtMs: 0,
    endpoint: 'chat',
    method: 'POST',
    path: '/v1/chat/completions',
    status: 200,
    error_type: null,
    requested_model: 'm',
    model: 'm',
    deployment: null,
    provider: null,
    key_id: null,
    key_name: null,
    user: null,
    team: null,
    stream: false,
    cached: false,
    attempts: 1,
    latency_ms: 1,
    prompt_tokens: 0,
    completion_tokens: 0,
    cost_usd: 0,
    requestBody: jsonBody(JSON.stringify(body)),
    responseBody: undefined,
  });

  it('keeps the newest events, publishes them, and resumes after a seq', () => {
    const bus = new GatewayEventBus();
    const published: number[] = [];
    bus.subscribe((m) => m.kind === 'traffic' && published.push(m.event.seq));
    const log = new TrafficLog(3, bus, () => 0);
    for (let i = 1; i <= 5; i += 1) log.record(record(i));
    expect(log.list(10).events.map((e) => e.request_id)).toEqual(['r5', 'r4', 'r3']);
    expect(log.list(2)).toMatchObject({ events: [{ request_id: 'r5' }, { request_id: 'r4' }], more: true });
    expect(log.listAfter(3, 10).events.map((e) => e.seq)).toEqual([5, 4]);
    expect(published).toEqual([1, 2, 3, 4, 5]);
  });

  it('pages after a seq from the oldest newer event, saying when newer ones wait, so a poller misses none', () => {
    const log = new TrafficLog(10, new GatewayEventBus(), () => 0);
    for (let i = 1; i <= 7; i += 1) log.record(record(i));
    const first = log.listAfter(2, 3);
    expect(first.events.map((e) => e.seq)).toEqual([5, 4, 3]);
    expect(first.more).toBe(true);
    const next = log.listAfter(5, 3);
    expect(next.events.map((e) => e.seq)).toEqual([7, 6]);
    expect(next.more).toBe(false);
    expect(log.listAfter(7, 3)).toEqual({ events: [], more: false });
  });

  it('numbers events past those of an earlier process, so a client resuming after a restart misses none', () => {
    const before = new TrafficLog(10, new GatewayEventBus(), () => 1_700_000_000_000);
    for (let i = 1; i <= 5; i += 1) before.record(record(i));
    // Restarted a second later.
    const after = new TrafficLog(10, new GatewayEventBus(), () => 1_700_000_001_000);
    after.record(record(6));
    expect(after.listAfter(before.lastSeq, 10).events.map((e) => e.request_id)).toEqual(['r6']);
    expect(Number.isSafeInteger(after.lastSeq)).toBe(true);
  });

  it('redacts credential fields and cuts large bodies', () => {
    const log = new TrafficLog(2, new GatewayEventBus());
    log.record({
      ...record(1),
      requestBody: jsonBody(JSON.stringify({ model: 'alias', api_key: 'sk-secret-in-body' }), { model: 'canonical' }),
    });
    log.record(record(2, { model: 'm', input: 'x'.repeat(MAX_BODY_CHARS * 2) }));
    const [big, small] = log.list(2).events;
    expect(JSON.stringify(small!.request_body)).not.toContain('sk-secret-in-body');
    expect(small!.request_body).toMatchObject({ model: 'canonical' });
    expect(big!.truncated).toBe(true);
    expect((big!.request_body as string).length).toBe(MAX_BODY_CHARS);
  });
});
