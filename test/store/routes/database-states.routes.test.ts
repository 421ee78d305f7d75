import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestStore, type TestStore } from '../app-helpers.js';

// Another process holding SQLite's write lock (a sqlite3 shell in a transaction, a backup tool) is an
// operational state, not a bug in the store: a write that waits past the busy timeout is told so.

describe('a write while another process holds the database lock', () => {
  let store: TestStore;
  let other: Database.Database;
  beforeEach(async () => {
    store = await buildTestStore();
    // The server waits 5 s for the lock; the test need not.
    store.database.sqlite.pragma('busy_timeout = 50');
    other = new Database(join(store.dir, 'gatehouse.db'));
  });
  afterEach(async () => {
    if (other.inTransaction) other.exec('ROLLBACK');
    other.close();
    await store.close();
  });

  const apply = (content: string) =>
    store.call('POST', '/v1/apply', { scope: { namespace: 'busy' }, documents: [{ key: 'a', content }] });

  it('answers 503 service_unavailable with Retry-After, saying the database is locked, and writes nothing', async () => {
    expect((await apply('1')).statusCode).toBe(200);
    other.exec('BEGIN IMMEDIATE');

    const response = await apply('2');
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('1');
    const error = JSON.parse(response.body).error;
    expect(error.type).toBe('service_unavailable');
    expect(error.code).toBe(503);
    expect(error.message).toMatch(/database is locked by another connection/);

    // Reads go on meanwhile (WAL), and see the state from before the refused write.
    const state = await store.call('GET', '/v1/state?namespace=busy');
    expect(JSON.parse(state.body)).toEqual({ revision: 1, objects: { a: '1' } });

    other.exec('COMMIT');
    const retried = await apply('2');
    expect(retried.statusCode).toBe(200);
    expect(JSON.parse(retried.body).revision).toBe(2);
  });
});

describe('a write when the disk is full', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await buildTestStore();
  });
  afterEach(async () => store.close());

  it('answers 503 naming the full disk, tells SDKs not to retry, writes nothing, and goes on once there is room', async () => {
    const apply = (content: string) =>
      store.call('POST', '/v1/apply', { scope: { namespace: 'full' }, documents: [{ key: 'a', content }] });
    expect((await apply('small')).statusCode).toBe(200);
    // As a full disk does: the file may not grow past the pages it has.
    const pages = store.database.sqlite.pragma('page_count', { simple: true }) as number;
    store.database.sqlite.pragma(`max_page_count = ${pages}`);

    const response = await apply('x'.repeat(200_000));
    expect(response.statusCode).toBe(503);
    expect(response.headers['x-should-retry']).toBe('false');
    const error = JSON.parse(response.body).error;
    expect(error).toEqual({
      type: 'service_unavailable',
      code: 503,
      message:
        'nothing was written (SQLITE_FULL): the disk that holds the database is full: free some space, then send the request again',
    });
    const state = await store.call('GET', '/v1/state?namespace=full');
    expect(JSON.parse(state.body)).toEqual({ revision: 1, objects: { a: 'small' } });

    store.database.sqlite.pragma('max_page_count = 1073741823');
    expect(JSON.parse((await apply('x'.repeat(200_000))).body).revision).toBe(2);
  });
});
