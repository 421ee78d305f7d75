import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/server/config/schema.js';
import { buildGatewayApp } from '../../src/server/gateway/app.js';
import { buildTestStore, type TestStore } from './app-helpers.js';

// /readyz must say when the database cannot be written or read, not only whether it answers `SELECT 1`:
// a load balancer keeps sending writes to a service that reports ready while every one of them fails.

/** Both services on one database, as the server runs them. */
describe('/readyz of both services while the database fails', () => {
  let store: TestStore;
  let gateway: FastifyInstance;
  beforeEach(async () => {
    store = await buildTestStore();
    const config = configSchema.parse({ server: { data_dir: store.dir, log_level: 'silent' } });
    gateway = await buildGatewayApp({ config, database: store.database, masterKey: 'mk-0123456789abcdef0123' });
    await gateway.ready();
  });
  afterEach(async () => {
    await gateway.close();
    await store.close();
  });

  const apply = (content: string) =>
    store.call('POST', '/v1/apply', { scope: { namespace: 'ready' }, documents: [{ key: 'a', content }] });

  /** Each service's /readyz: its status and the database check. */
  async function readiness(): Promise<Array<{ status: number; database: string }>> {
    const answers = [await store.app.inject({ url: '/readyz' }), await gateway.inject({ url: '/readyz' })];
    return answers.map((answer) => ({ status: answer.statusCode, database: JSON.parse(answer.body).checks.database }));
  }
  const ready = [
    { status: 200, database: 'ok' },
    { status: 200, database: 'ok' },
  ];
  const unavailable = [
    { status: 503, database: 'unavailable' },
    { status: 503, database: 'unavailable' },
  ];

  it('reports the database unavailable after a write the full disk refused, and ready again once there is room', async () => {
    expect((await apply('small')).statusCode).toBe(200);
    expect(await readiness()).toEqual(ready);
    // As a full disk does: the file may not grow past the pages it has.
    const pages = store.database.sqlite.pragma('page_count', { simple: true }) as number;
    store.database.sqlite.pragma(`max_page_count = ${pages}`);

    const refused = await apply('x'.repeat(200_000));
    expect(refused.statusCode).toBe(503);
    expect(JSON.parse(refused.body).error.message).toMatch(/SQLITE_FULL/);
    expect(await readiness()).toEqual(unavailable);
    const body = JSON.parse((await store.app.inject({ url: '/readyz' })).body);
    expect(body).toMatchObject({ status: 'unavailable', error: { message: 'not ready: database unavailable' } });
    // Polled again, still full: still unavailable.
    expect(await readiness()).toEqual(unavailable);

    // Room again, and no write in between: the poll itself finds it.
    store.database.sqlite.pragma('max_page_count = 1073741823');
    expect(await readiness()).toEqual(ready);
    expect(JSON.parse((await apply('x'.repeat(200_000))).body).revision).toBe(2);
  });

  it('reports the database unavailable while its file is not a database, and ready again once it is', async () => {
    expect((await apply('small')).statusCode).toBe(200);
    const file = join(store.dir, 'gatehouse.db');
    // Another connection that read the file before the damage and writes after it (as the gateway's
    // usage rows do): the server's connection then reads the file again rather than its cache.
    const other = new Database(file);
    try {
      other.exec('CREATE TABLE test_side_writes (x)');
      store.database.sqlite.pragma('wal_checkpoint(TRUNCATE)');
      other.exec('BEGIN IMMEDIATE');
      const header = Buffer.alloc(100);
      const fd = openSync(file, 'r+');
      try {
        readSync(fd, header, 0, 100, 0);
        writeSync(fd, Buffer.alloc(100, 'x'), 0, 100, 0);
        other.exec('INSERT INTO test_side_writes VALUES (1); COMMIT');

        const read = await store.call('GET', '/v1/state?namespace=ready');
        expect(read.statusCode).toBe(503);
        expect(JSON.parse(read.body).error.message).toMatch(/SQLITE_NOTADB/);
        expect(await readiness()).toEqual(unavailable);

        writeSync(fd, header, 0, 100, 0);
      } finally {
        closeSync(fd);
      }
      expect(await readiness()).toEqual(ready);
      expect(JSON.parse((await store.call('GET', '/v1/state?namespace=ready')).body).objects).toEqual({ a: 'small' });
    } finally {
      other.close();
    }
  });
});
