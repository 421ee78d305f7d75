import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestStore, type TestStore } from './app-helpers.js';

// A full disk is SQLite's page limit here (PRAGMA max_page_count), which refuses a write that needs
// new pages as a full disk does (SQLITE_FULL), without mounting a small file system.

describe('gc when the disk is full', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await buildTestStore();
  });
  afterEach(async () => store.close());

  it('answers 503 saying that gc needs free space on that disk itself, to be freed outside Gatehouse', async () => {
    for (const content of ['first', 'second', 'third']) {
      const response = await store.call('POST', '/v1/apply', {
        scope: { namespace: 'full' },
        documents: [{ key: 'a', content }],
      });
      expect(response.statusCode).toBe(200);
    }
    // A prune frees more pages than it takes; on a full disk its -wal is what needs room. Here the
    // prune's own write is made to need new pages: listing the content it leaves unreferenced adds a
    // large row to a table of the test's.
    const sqlite = store.database.sqlite;
    sqlite.exec('CREATE TABLE test_padding (bytes BLOB)');
    sqlite.exec(`CREATE TEMP TRIGGER test_grow AFTER INSERT ON main.store_unreferenced_blobs
      BEGIN INSERT INTO main.test_padding VALUES (zeroblob(200000)); END`);
    sqlite.exec('VACUUM');
    const pages = sqlite.pragma('page_count', { simple: true }) as number;
    sqlite.pragma(`max_page_count = ${pages}`);

    const response = await store.call('POST', '/v1/gc', { keep: 1 });
    expect(response.statusCode).toBe(503);
    expect(response.headers['x-should-retry']).toBe('false');
    const error = JSON.parse(response.body).error;
    expect(error.type).toBe('service_unavailable');
    expect(error.message).toMatch(/^nothing was written \(SQLITE_FULL\): the disk that holds the database is full/);
    expect(error.message).toContain('gc needs free space on that disk itself');
    expect(error.message).toContain('free space outside Gatehouse first');
  });
});
