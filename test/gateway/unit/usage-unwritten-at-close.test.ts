import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../src/server/db/connection.js';
import { AuditRepository } from '../../../src/server/gateway/accounting/audit.repository.js';
import { keepUnwrittenUsage } from '../../../src/server/gateway/accounting/unwritten-usage.js';
import type { UsageEntry } from '../../../src/server/gateway/accounting/usage-entry.js';
import { UsageRecorder } from '../../../src/server/gateway/accounting/usage-recorder.js';
import { UsageRepository } from '../../../src/server/gateway/accounting/usage.repository.js';
import { usageEntry } from './usage-entry-fixture.js';

/** Rows that need pages of their own, so a file that may not grow refuses them. */
const entry = (n: number): UsageEntry => usageEntry(n, { requestedModel: 'x'.repeat(2000) });

// A full disk (or a read-only file) at the stop takes the path a lock held by another process takes:
// the rows are tried again until the stop's deadline, then handed over to be kept in a file.
describe('usage rows a full disk refuses at close', () => {
  let dir: string;
  let database: DatabaseHandle;
  let full: Database.Database;
  const count = () => (database.sqlite.prepare('SELECT COUNT(*) AS n FROM gateway_usage').get() as { n: number }).n;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-usage-close-'));
    database = openDatabase(join(dir, 'gatehouse.db'));
    // A connection that may not grow the file: every insert that needs a page fails with SQLITE_FULL.
    full = new Database(database.file);
    full.pragma(`max_page_count = ${full.pragma('page_count', { simple: true }) as number}`);
  });
  afterEach(() => {
    full.close();
    database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const recorder = (unwritten: UsageEntry[][], dropped: number[]) =>
    new UsageRecorder(
      new UsageRepository(full),
      database.sqlite,
      new UsageRepository(database.sqlite),
      new AuditRepository(database.sqlite),
      {
        maxBatch: 50,
        unwritableRetryMs: 20,
        onError: (_error, rows) => dropped.push(rows),
        onUnwritten: (rows) => unwritten.push([...rows]),
      },
    );

  it('are handed over, all of them, when there is still no room at the deadline', async () => {
    const unwritten: UsageEntry[][] = [];
    const dropped: number[] = [];
    const closing = recorder(unwritten, dropped);
    for (let i = 1; i <= 8; i += 1) closing.record(entry(i));
    await closing.close(Date.now() + 300);
    expect(count()).toBe(0);
    expect(dropped).toEqual([]);
    expect(unwritten.map((rows) => rows.map((row) => row.requestId))).toEqual([
      ['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8'],
    ]);
  });

  it('are written when room comes before the deadline', async () => {
    const unwritten: UsageEntry[][] = [];
    const closing = recorder(unwritten, []);
    for (let i = 1; i <= 8; i += 1) closing.record(entry(i));
    const closed = closing.close(Date.now() + 20_000);
    await new Promise((resolve) => setTimeout(resolve, 150));
    full.pragma('max_page_count = 1073741823');
    await closed;
    expect(count()).toBe(8);
    expect(unwritten).toEqual([]);
  });
});

describe('usage rows that cannot be kept in the data folder either', () => {
  it('go to the log, rows and all, after an error naming the folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-usage-nofolder-'));
    rmSync(dir, { recursive: true });
    const said: Array<{ level: string; message: string; details?: unknown }> = [];
    keepUnwrittenUsage(dir, [entry(1), entry(2)], {
      info: (message, details) => said.push({ level: 'info', message, details }),
      warn: (message, details) => said.push({ level: 'warn', message, details }),
      error: (message) => said.push({ level: 'error', message }),
    });
    expect(said.map((line) => line.level)).toEqual(['error', 'warn']);
    expect(said[0]!.message).toBe(
      `could not write 2 usage rows at the stop, nor keep them in the data folder ${dir}: the next line holds them`,
    );
    expect(said[1]!.details).toEqual({ rows: 2, usage_rows: [entry(1), entry(2)] });
  });

  it('are kept one JSON row a line, readable by the owner only, when the folder takes them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-usage-kept-'));
    try {
      const said: string[] = [];
      const log = { info: () => {}, warn: (message: string) => said.push(message), error: () => {} };
      keepUnwrittenUsage(dir, [entry(1), entry(2)], log);
      const file = /kept in (\S+),/.exec(said[0]!)![1]!;
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify(entry(1))}\n${JSON.stringify(entry(2))}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
