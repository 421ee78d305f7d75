import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageEntry } from '../../src/server/gateway/accounting/usage-entry.js';
import { UsageRepository } from '../../src/server/gateway/accounting/usage.repository.js';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';

/** Enough rows that writing them all out takes many pages. */
const ROWS = 20_000;

const run = promisify(execFile);

/**
 * Starts the export, and once its headers are in asks for /healthz; prints which of the two finished
 * first, with what it received.
 */
const DOWNLOAD_AND_PROBE = `
const [gateway, key] = process.argv.slice(1);
const finished = [];
const exported = await fetch(gateway + '/internal/usage/logs?format=csv', { headers: { authorization: 'Bearer ' + key } });
const body = exported.text().then((text) => { finished.push('export'); return text; });
const health = await fetch(gateway + '/healthz');
finished.push('healthz');
const text = await body;
console.log(JSON.stringify({
  status: exported.status,
  rows: exported.headers.get('x-gatehouse-export-rows'),
  lines: text.split('\\r\\n').length,
  health: health.status,
  finished,
}));
`;

/** A finished chat request's usage row, as the recorder writes one. */
const entry = (index: number): UsageEntry => ({
  requestId: `bulk-${index}`,
  createdAt: Date.now(),
  keyId: null,
  ownerUser: null,
  team: null,
  endpoint: 'chat',
  model: 'demo/echo',
  requestedModel: 'demo/echo',
  deployment: 'demo',
  provider: 'demo',
  promptTokens: 12,
  completionTokens: 34,
  costUsd: 0,
  latencyMs: 5,
  status: 200,
  errorType: null,
  stream: false,
  cached: false,
  admitted: true,
});

describe('a large usage CSV export', () => {
  let servers: TempServers;

  beforeAll(async () => {
    servers = await startTempServers();
    // Written beside the running gateway (WAL lets a second connection write), as its recorder would.
    const db = new Database(join(servers.dataDir, 'gatehouse.db'));
    try {
      new UsageRepository(db).insertBatch(Array.from({ length: ROWS }, (_, index) => entry(index)));
    } finally {
      db.close();
    }
  });
  afterAll(async () => servers?.stop());

  it('leaves the gateway answering other requests while it is written', async () => {
    // The download runs in another process, reading as fast as the gateway writes (as a client on
    // another machine does): one in this process would stop reading while the export holds the loop,
    // and the export would then wait for it instead of holding on.
    const { stdout } = await run(process.execPath, [
      '--input-type=module',
      '-e',
      DOWNLOAD_AND_PROBE,
      servers.gatewayUrl,
      TEST_MASTER_KEY,
    ]);
    const seen = JSON.parse(stdout) as {
      status: number;
      rows: string;
      lines: number;
      health: number;
      finished: string[];
    };
    expect(seen).toMatchObject({ status: 200, rows: String(ROWS), health: 200 });
    expect(seen.lines).toBe(ROWS + 2); // header, rows, and the empty rest after the last CRLF
    expect(seen.finished).toEqual(['healthz', 'export']);
  });
});
