import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/server/config/schema.js';
import { openDatabase } from '../../src/server/db/connection.js';
import { SWEEP_BATCH } from '../../src/server/store/engine/content-sweeper.js';
import { StoreEngine } from '../../src/server/store/engine/store-engine.js';
import { buildStoreApp } from '../../src/server/store/app.js';
import { openTempEngine, type TempEngine } from './helpers.js';
import { socketStore } from './support/socket-store.js';

// A branch deletion or gc used to delete every unreferenced content inside its write transaction, so
// writers waited for the whole sweep (tens to hundreds of milliseconds on a store of a few thousand
// revisions of large documents). The transaction now only lists them; the sweep deletes them in short
// slices after it. Here the test runs each slice itself, so a write can land between two slices.

/** An engine whose sweep slices wait in `slices` until the test runs them. */
function engineWithManualSweep(): TempEngine & { slices: (() => void)[]; runSlices(count?: number): number } {
  const slices: (() => void)[] = [];
  const temp = openTempEngine({ sweep: { schedule: (slice) => void slices.push(slice), sliceMs: 0 } });
  return Object.assign(temp, {
    slices,
    runSlices(count = Infinity) {
      let ran = 0;
      while (ran < count && slices.length > 0) {
        slices.shift()!();
        ran++;
      }
      return ran;
    },
  });
}

const unique = (i: number) => `feature-only content ${i} `.padEnd(200, '.');

describe('sweeping unreferenced contents after a branch deletion or gc', () => {
  let t: ReturnType<typeof engineWithManualSweep>;
  afterEach(() => t?.close());
  const count = (sql: string, ...params: unknown[]) =>
    t.database.sqlite
      .prepare(sql)
      .pluck()
      .get(...params) as number;
  const stored = (content: string) => count('SELECT count(*) FROM store_blobs WHERE content = ?', content);
  const listed = () => count('SELECT count(*) FROM store_unreferenced_blobs');

  /** main with one shared document, and `feature` with 150 contents of its own. */
  function branchWithOwnContents(): void {
    t.engine.applyDocuments(undefined, [{ key: 'shared.txt', content: 'shared' }]);
    t.engine.createBranch(undefined, 'feature');
    for (let i = 0; i < 150; i += 10) {
      const documents = Array.from({ length: 10 }, (_, j) => ({ key: `f${i + j}.txt`, content: unique(i + j) }));
      t.engine.applyDocuments({ branch: 'feature' }, documents);
    }
  }

  it('leaves the contents of a deleted branch to slices after its transaction, then deletes them all', () => {
    t = engineWithManualSweep();
    branchWithOwnContents();

    expect(t.engine.deleteBranch({ branch: 'feature' })).toMatchObject({ name: 'feature', pruned: 16 });
    // Listed, not yet deleted: the deleting transaction did not pay for freeing them.
    expect(stored(unique(0))).toBe(1);
    expect(listed()).toBe(150);
    expect(t.slices).toHaveLength(1);

    // A slice of 0 ms runs one statement: SWEEP_BATCH contents per slice, each slice its own transaction.
    expect(t.runSlices(1)).toBe(1);
    expect(listed()).toBe(150 - SWEEP_BATCH);
    expect(t.runSlices()).toBe(Math.ceil(150 / SWEEP_BATCH) - 1);
    expect(listed()).toBe(0);
    for (let i = 0; i < 150; i++) expect(stored(unique(i))).toBe(0);
    expect(stored('shared')).toBe(1);
    expect(t.engine.state(undefined).objects).toEqual({ 'shared.txt': 'shared' });
  });

  it('keeps a listed content that a write stores again between two slices', () => {
    t = engineWithManualSweep();
    branchWithOwnContents();
    const idOf = (content: string) => count('SELECT id FROM store_blobs WHERE content = ?', content);
    const reusedId = idOf(unique(149));
    t.engine.deleteBranch({ branch: 'feature' });
    t.runSlices(1);
    expect(stored(unique(0))).toBe(0);

    // unique(149) is still listed (the sweep goes by id); unique(0) is already gone and stored anew.
    const written = t.engine.applyDocuments(undefined, [
      { key: 'again.txt', content: unique(149) },
      { key: 'anew.txt', content: unique(0) },
    ]);
    expect(idOf(unique(149))).toBe(reusedId);
    t.runSlices();

    expect(listed()).toBe(0);
    const expected = { 'again.txt': unique(149), 'anew.txt': unique(0), 'shared.txt': 'shared' };
    expect(t.engine.state(undefined).objects).toEqual(expected);
    expect(t.engine.state(undefined, { revision: written.revision }).objects).toEqual(expected);
  });

  it('keeps a reused content even when gc then deletes the revision that reused it', () => {
    t = engineWithManualSweep();
    branchWithOwnContents();
    t.engine.deleteBranch({ branch: 'feature' });
    // Reused by a revision that gc removes before the sweep gets there; the head and the root's
    // keyframe still hold it.
    t.engine.applyDocuments(undefined, [{ key: 'again.txt', content: unique(149) }]);
    t.engine.applyDocuments(undefined, [{ key: 'other.txt', content: 'other' }]);
    expect(t.engine.gc(1).pruned).toBeGreaterThan(0);
    t.runSlices();

    expect(listed()).toBe(0);
    expect(stored(unique(149))).toBe(1);
    expect(t.engine.state(undefined).objects).toMatchObject({ 'again.txt': unique(149) });
    const [oldest] = t.engine.log(undefined).entries.slice(-1);
    expect(t.engine.state(undefined, { revision: oldest.id }).objects).toMatchObject({ 'again.txt': unique(149) });
  });

  it('lists what gc leaves unreferenced and sweeps it after the transaction', () => {
    t = engineWithManualSweep();
    for (let i = 0; i < 20; i++) t.engine.applyDocuments(undefined, [{ key: 'a.txt', content: unique(i) }]);
    expect(t.engine.gc(2)).toEqual({ pruned: 18 });
    // Revision 19's change names unique(17) as its before, so unique(0) to unique(16) are garbage.
    expect(listed()).toBe(17);
    expect(stored(unique(0))).toBe(1);
    t.runSlices();
    expect(stored(unique(0))).toBe(0);
    expect(stored(unique(17))).toBe(1);
    expect(t.engine.state(undefined).objects).toEqual({ 'a.txt': unique(19) });
  });

  it('sweeps on its own (setImmediate) and says when it is done', async () => {
    const temp = openTempEngine();
    try {
      temp.engine.applyDocuments(undefined, [{ key: 'a', content: 'main' }]);
      temp.engine.applyDocuments({ branch: 'gone' }, [{ key: 'a', content: 'gone' }]);
      temp.engine.deleteBranch({ branch: 'gone' });
      const gone = () => temp.database.sqlite.prepare(`SELECT count(*) FROM store_blobs WHERE content = 'gone'`);
      expect(gone().pluck().get()).toBe(1);
      await temp.engine.contentSwept();
      expect(gone().pluck().get()).toBe(0);
    } finally {
      temp.close();
    }
  });
});

describe('DELETE /v1/branches with writes of the same contents arriving during the sweep', () => {
  const socket = socketStore();

  it('answers every write, and every content written stays readable once the sweep is over', async () => {
    const scope = { namespace: 'sweep-race', branch: 'feature' };
    for (let i = 0; i < 300; i += 50) {
      const documents = Array.from({ length: 50 }, (_, j) => ({ key: `k${i + j}`, content: unique(i + j) }));
      expect((await socket.send('POST', '/v1/apply', { scope, documents })).status).toBe(200);
    }
    const deleting = socket.send('DELETE', '/v1/branches', { namespace: 'sweep-race', name: 'feature' });
    // Each write stores a content of the deleted branch again, while its sweep is listed or running.
    const writes = Array.from({ length: 30 }, (_, i) =>
      socket.send('POST', '/v1/apply', {
        scope: { namespace: 'sweep-race', branch: 'main' },
        documents: [{ key: `w${i}`, content: unique(i * 10 + 9) }],
      }),
    );
    expect((await deleting).status).toBe(200);
    for (const write of await Promise.all(writes)) expect(write.status).toBe(200);

    const sqlite = socket.store.database.sqlite;
    const listed = sqlite.prepare('SELECT count(*) FROM store_unreferenced_blobs').pluck();
    for (let wait = 0; listed.get() !== 0 && wait < 200; wait++) await new Promise((r) => setTimeout(r, 10));
    expect(listed.get()).toBe(0);
    const state = await socket.send('GET', '/v1/state?namespace=sweep-race&branch=main');
    expect(state.body.objects).toEqual(
      Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`w${i}`, unique(i * 10 + 9)])),
    );
    expect(sqlite.prepare('SELECT count(*) FROM store_blobs').pluck().get()).toBe(30);
  });
});

describe('a sweep left unfinished by a process that stopped', () => {
  /**
   * A database whose branch `gone` was deleted by a process that stopped before sweeping (its slices
   * never run), after `meanwhile`; then the store app of the next start over it, once its sweep is
   * done: the contents left, in order.
   */
  async function contentsAfterNextStart(
    documentOfGone: { key: string; content: string },
    meanwhile: (sqlite: ReturnType<typeof openDatabase>['sqlite']) => void = () => {},
  ): Promise<string[]> {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-sweep-'));
    const file = join(dir, 'gatehouse.db');
    try {
      const first = openDatabase(file);
      const engine = new StoreEngine(first.sqlite, { sweep: { schedule: () => {} } });
      engine.applyDocuments(undefined, [{ key: 'a', content: 'kept' }]);
      engine.applyDocuments({ branch: 'gone' }, [documentOfGone]);
      engine.deleteBranch({ branch: 'gone' });
      meanwhile(first.sqlite);
      first.close();

      const database = openDatabase(file);
      const config = configSchema.parse({
        server: { data_dir: dir, log_level: 'silent' },
        store: { auth: { enabled: false } },
      });
      const app = await buildStoreApp({ config, database, tokens: [] });
      await app.ready();
      const listed = database.sqlite.prepare('SELECT count(*) FROM store_unreferenced_blobs').pluck();
      for (let wait = 0; listed.get() !== 0 && wait < 100; wait++) await new Promise((r) => setTimeout(r, 10));
      expect(listed.get()).toBe(0);
      const contents = database.sqlite.prepare('SELECT content FROM store_blobs ORDER BY content').pluck().all();
      await app.close();
      database.close();
      return contents as string[];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('is finished by the next store app over the same database', async () => {
    expect(await contentsAfterNextStart({ key: 'a', content: 'left listed' })).toEqual(['kept']);
  });

  it('checks what is listed against the references first: a content put back in use meanwhile is kept', async () => {
    // A writer that does not keep the list (an older version started on the folder, a hand edit) puts
    // the listed content back in use as the content of main's document a.
    const reuse = (sqlite: ReturnType<typeof openDatabase>['sqlite']) => {
      const reusedBlob = sqlite.prepare("SELECT id FROM store_blobs WHERE content = 'reused'").pluck().get();
      expect(sqlite.prepare('UPDATE store_head_state SET blob_id = ?').run(reusedBlob).changes).toBe(1);
    };
    expect(await contentsAfterNextStart({ key: 'b', content: 'reused' }, reuse)).toEqual(['kept', 'reused']);
  });
});
