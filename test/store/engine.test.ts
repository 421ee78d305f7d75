import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compareBytewise } from '../../src/server/store/engine/bytewise.js';
import { StoreError } from '../../src/server/store/engine/errors.js';
import type { StoreEngine } from '../../src/server/store/engine/store-engine.js';
import { docs, openTempEngine, type TempEngine } from './helpers.js';

const kindOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    if (error instanceof StoreError) return `${error.kind}: ${error.message}`;
    throw error;
  }
  throw new Error('expected a StoreError');
};

describe('store engine', () => {
  let t: TempEngine;
  let engine: StoreEngine;
  beforeEach(() => {
    t = openTempEngine({ limits: { documents_per_apply: 5, document_bytes: 16 } });
    engine = t.engine;
  });
  afterEach(() => t.close());

  describe('apply', () => {
    it('creates, updates and deletes with before/after only where they exist, sorted by key', () => {
      expect(engine.applyDocuments(undefined, docs({ b: '1', a: '2' }))).toEqual({
        revision: 1,
        noop: false,
        changes: [
          { key: 'a', type: 'create', after: '2' },
          { key: 'b', type: 'create', after: '1' },
        ],
      });
      expect(
        engine.applyDocuments(
          undefined,
          [
            { key: 'a', content: '3' },
            { key: 'b', delete: true },
            { key: 'c', content: '' },
          ],
          { message: 'second' },
        ),
      ).toEqual({
        revision: 2,
        noop: false,
        changes: [
          { key: 'a', type: 'update', before: '2', after: '3' },
          { key: 'b', type: 'delete', before: '1' },
          { key: 'c', type: 'create', after: '' },
        ],
      });
      expect(engine.state(undefined)).toEqual({ revision: 2, objects: { a: '3', c: '' } });
    });

    it('answers a no-op with the current head, noop true and no changes, and writes no revision', () => {
      engine.applyDocuments(undefined, docs({ a: '1' }));
      expect(
        engine.applyDocuments(undefined, [
          { key: 'a', content: '1' },
          { key: 'zz', delete: true },
        ]),
      ).toEqual({ revision: 1, noop: true, changes: [] });
      expect(engine.log(undefined).entries).toHaveLength(1);
      expect(engine.applyDocuments({ namespace: 'empty' }, [{ key: 'x', delete: true }])).toEqual({
        revision: 0,
        noop: true,
        changes: [],
      });
      expect(engine.namespaces().namespaces.map((n) => n.name)).toEqual(['default']);
    });

    it('replace mode makes the listed documents the whole state', () => {
      engine.applyDocuments(undefined, docs({ a: '1', b: '2', c: '3' }));
      const result = engine.applyDocuments(undefined, docs({ b: '2', d: '4' }), { mode: 'replace' });
      expect(result.changes).toEqual([
        { key: 'a', type: 'delete', before: '1' },
        { key: 'c', type: 'delete', before: '3' },
        { key: 'd', type: 'create', after: '4' },
      ]);
      expect(engine.state(undefined).objects).toEqual({ b: '2', d: '4' });
    });

    it('defaults the message to the operation name and keeps a given one', () => {
      engine.applyDocuments(undefined, docs({ a: '1' }));
      engine.applyDocuments(undefined, docs({ a: '2' }), { message: 'tune a' });
      expect(engine.log(undefined).entries.map((e) => e.message)).toEqual(['tune a', 'apply']);
    });

    it('orders changes by UTF-8 bytes, not UTF-16 units', () => {
      // U+FF5E sorts before U+1F600 in bytes (EF BD.. < F0 9F..), after it in UTF-16 units.
      const keys = ['\u{1F600}', '\uFF5E', 'a', 'Z', 'é'];
      const result = engine.applyDocuments(
        undefined,
        keys.slice(0, 5).map((key) => ({ key, content: 'x' })),
      );
      expect(result.changes.map((c) => c.key)).toEqual(['Z', 'a', 'é', '\uFF5E', '\u{1F600}']);
      expect(Object.keys(engine.state(undefined).objects)).toEqual(['Z', 'a', 'é', '\uFF5E', '\u{1F600}']);
      expect([...keys].sort(compareBytewise)).toEqual(
        [...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y))),
      );
    });

    it('keeps a key named __proto__ as an ordinary document', () => {
      engine.applyDocuments(undefined, docs({ ['__proto__']: 'p', constructor: 'c' }));
      const objects = engine.state(undefined).objects;
      expect(Object.keys(objects)).toEqual(['__proto__', 'constructor']);
      expect(Object.getPrototypeOf(objects)).toBe(Object.prototype);
    });

    it('rejects empty lists, duplicate keys and oversized requests', () => {
      expect(kindOf(() => engine.applyDocuments(undefined, []))).toBe(
        'invalid: documents must list at least one document',
      );
      expect(
        kindOf(() =>
          engine.applyDocuments(undefined, [
            { key: 'a', content: '1' },
            { key: 'a', content: '2' },
          ]),
        ),
      ).toBe('invalid: documents[1].key "a" repeats documents[0].key');
      expect(
        kindOf(() => engine.applyDocuments(undefined, docs({ a: '', b: '', c: '', d: '', e: '', f: '' }))),
      ).toMatch(/^too_large: documents lists 6 documents; the limit is 5/);
      expect(kindOf(() => engine.applyDocuments(undefined, [{ key: 'a', content: 'é'.repeat(9) }]))).toBe(
        'too_large: documents[0].content (key "a") is 18 bytes; the limit is 16 bytes per document (store.limits.document_bytes)',
      );
      expect(engine.applyDocuments(undefined, [{ key: 'a', content: 'x'.repeat(16) }]).revision).toBe(1);
    });

    it('answers 409 when expected_revision is not the head (compare-and-swap)', () => {
      expect(engine.applyDocuments(undefined, docs({ a: '1' }), { expectedRevision: 0 }).revision).toBe(1);
      expect(kindOf(() => engine.applyDocuments(undefined, docs({ a: '2' }), { expectedRevision: 0 }))).toBe(
        'conflict: branch "main" of namespace "default" is at revision 1, not the expected_revision 0: another write came first; read the branch at revision 1 and retry with expected_revision 1',
      );
      expect(engine.applyDocuments(undefined, docs({ a: '2' }), { expectedRevision: 1 }).revision).toBe(2);
      expect(engine.applyDocuments(undefined, docs({ a: '2' }), { expectedRevision: null }).noop).toBe(true);
    });

    it('stores each distinct content once', () => {
      engine.applyDocuments(undefined, docs({ a: 'same', b: 'same' }));
      engine.applyDocuments({ namespace: 'other' }, docs({ c: 'same' }));
      expect(t.database.sqlite.prepare(`SELECT count(*) FROM store_blobs WHERE content = 'same'`).pluck().get()).toBe(
        1,
      );
    });
  });

  describe('revisions, branches and scopes', () => {
    it('numbers revisions per namespace, shared by its branches, with parent_id the branch predecessor', () => {
      engine.applyDocuments(undefined, docs({ a: '1' }));
      engine.applyDocuments({ branch: 'dev' }, docs({ a: '2' }));
      engine.applyDocuments(undefined, docs({ a: '3' }));
      engine.applyDocuments({ namespace: 'team/app' }, docs({ a: '1' }));
      expect(engine.log(undefined).entries.map((e) => [e.id, e.parent_id, e.branch])).toEqual([
        [3, 1, 'main'],
        [1, 0, 'main'],
      ]);
      expect(engine.log({ branch: 'dev' }).entries.map((e) => [e.id, e.parent_id, e.branch])).toEqual([[2, 0, 'dev']]);
      expect(engine.log({ namespace: 'team/app' }).entries.map((e) => e.id)).toEqual([1]);
    });

    it('answers revision 0 and no objects for a scope with nothing written', () => {
      expect(engine.state({ namespace: 'nothing', branch: 'here' })).toEqual({ revision: 0, objects: {} });
      expect(engine.log({ namespace: 'nothing' })).toEqual({ entries: [], total: 0 });
      expect(engine.branches({ namespace: 'nothing' })).toEqual({ branches: [] });
      expect(engine.diff({ namespace: 'nothing' })).toEqual({ from_revision: 0, to_revision: 0, changes: [] });
    });

    it('reads a revision only within its branch and a checkpoint anywhere in the namespace', () => {
      engine.applyDocuments(undefined, docs({ a: '1' }));
      engine.applyDocuments({ branch: 'dev' }, docs({ b: '1' }));
      engine.createCheckpoint({ branch: 'dev' }, 'dev-cp');
      expect(engine.state(undefined, { revision: 1 }).objects).toEqual({ a: '1' });
      expect(kindOf(() => engine.state(undefined, { revision: 2 }))).toBe(
        'not_found: revision 2 is not in the history of branch "main" of namespace "default"',
      );
      expect(kindOf(() => engine.state(undefined, { revision: 9 }))).toMatch(/^not_found: revision 9/);
      expect(engine.state(undefined, { checkpoint: 'dev-cp' })).toEqual({ revision: 2, objects: { b: '1' } });
      expect(kindOf(() => engine.state(undefined, { checkpoint: 'nope' }))).toBe(
        'not_found: checkpoint "nope" does not exist in namespace "default"',
      );
      // Checkpoint wins over revision.
      expect(engine.state(undefined, { checkpoint: 'dev-cp', revision: 1 }).revision).toBe(2);
    });

    it('creates branches from head, a revision or a checkpoint, with a first revision of creates', () => {
      engine.applyDocuments(undefined, docs({ a: '1', b: '1' }));
      engine.applyDocuments(undefined, docs({ a: '2' }));
      engine.createCheckpoint(undefined, 'cp');
      engine.applyDocuments(undefined, docs({ c: '3' }));
      expect(engine.createBranch(undefined, 'from-head')).toEqual({
        name: 'from-head',
        base_revision: 3,
        head_revision: 4,
      });
      expect(engine.createBranch(undefined, 'from-rev', { fromRevision: 1 })).toEqual({
        name: 'from-rev',
        base_revision: 1,
        head_revision: 5,
      });
      expect(engine.createBranch({ branch: 'from-rev' }, 'from-cp', { fromCheckpoint: 'cp', fromRevision: 1 })).toEqual(
        { name: 'from-cp', base_revision: 2, head_revision: 6 },
      );
      expect(engine.state({ branch: 'from-rev' }).objects).toEqual({ a: '1', b: '1' });
      expect(engine.state({ branch: 'from-cp' }).objects).toEqual({ a: '2', b: '1' });
      const [first] = engine.log({ branch: 'from-rev' }).entries;
      expect(first).toMatchObject({ id: 5, parent_id: 0, branch: 'from-rev', message: 'branch from main@1' });
      expect(first.changes).toEqual([
        { key: 'a', type: 'create', after: '1' },
        { key: 'b', type: 'create', after: '1' },
      ]);
      expect(engine.log({ branch: 'from-cp' }).entries[0].message).toBe('branch from main@2');
      expect(kindOf(() => engine.createBranch(undefined, 'from-head'))).toBe(
        'conflict: branch "from-head" already exists in namespace "default"',
      );
      expect(kindOf(() => engine.createBranch(undefined, 'x', { fromRevision: 5 }))).toMatch(
        /^not_found: revision 5 is not in the history of branch "main"/,
      );
      expect(kindOf(() => engine.createBranch(undefined, 'x', { fromCheckpoint: 'nope' }))).toMatch(
        /^not_found: checkpoint "nope"/,
      );
    });

    it('lists branches sorted by name with current, base, head and paging', () => {
      engine.applyDocuments(undefined, docs({ a: '1' }));
      for (const name of ['b', 'a', 'c/d']) engine.createBranch(undefined, name);
      expect(engine.branches({ branch: 'b' })).toEqual({
        branches: [
          { name: 'a', base_revision: 1, head_revision: 3, current: false },
          { name: 'b', base_revision: 1, head_revision: 2, current: true },
          { name: 'c/d', base_revision: 1, head_revision: 4, current: false },
          { name: 'main', base_revision: 0, head_revision: 1, current: false },
        ],
      });
      const first = engine.branches(undefined, { limit: 2 });
      expect(first.branches.map((b) => b.name)).toEqual(['a', 'b']);
      expect(first.next_cursor).toBe('b');
      const second = engine.branches(undefined, { limit: 2, after: first.next_cursor });
      expect(second.branches.map((b) => b.name)).toEqual(['c/d', 'main']);
      expect(second.next_cursor).toBeUndefined();
    });
  });

  describe('log', () => {
    it('pages newest first with limit (default 20, capped at 1000), after and next_cursor', () => {
      for (let i = 1; i <= 25; i++) engine.applyDocuments(undefined, docs({ a: String(i) }));
      const first = engine.log(undefined);
      expect(first.entries.map((e) => e.id)).toEqual(Array.from({ length: 20 }, (_, i) => 25 - i));
      expect(first.next_cursor).toBe(6);
      const rest = engine.log(undefined, { after: first.next_cursor });
      expect(rest.entries.map((e) => e.id)).toEqual([5, 4, 3, 2, 1]);
      expect(rest.next_cursor).toBeUndefined();
      expect(engine.log(undefined, { limit: 5000 }).entries).toHaveLength(25);
      expect(engine.log(undefined, { limit: 3, after: 10 }).entries.map((e) => e.id)).toEqual([9, 8, 7]);
      const entry = first.entries[0];
      expect(entry.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(engine.revision('default', 25)).toEqual(entry);
      expect(kindOf(() => engine.revision('default', 26))).toBe(
        'not_found: revision 26 does not exist in namespace "default"',
      );
    });
  });

  describe('diff', () => {
    beforeEach(() => {
      engine.applyDocuments(undefined, docs({ a: '1', b: '1' }));
      engine.applyDocuments(undefined, [
        { key: 'a', content: '2' },
        { key: 'b', delete: true },
        { key: 'c', content: '3' },
      ]);
    });

    it('compares head with a revision without writing', () => {
      expect(engine.diff(undefined, { revision: 1 })).toEqual({
        from_revision: 2,
        to_revision: 1,
        changes: [
          { key: 'a', type: 'update', before: '2', after: '1' },
          { key: 'b', type: 'create', after: '1' },
          { key: 'c', type: 'delete', before: '3' },
        ],
      });
      expect(engine.diff(undefined)).toEqual({ from_revision: 2, to_revision: 2, changes: [] });
      expect(engine.log(undefined).entries).toHaveLength(2);
    });

    it('previews documents on top of head or the selected revision', () => {
      expect(
        engine.diff(undefined, {
          documents: [
            { key: 'a', content: '2' },
            { key: 'd', content: '4' },
          ],
        }),
      ).toEqual({
        from_revision: 2,
        to_revision: 2,
        changes: [{ key: 'd', type: 'create', after: '4' }],
      });
      engine.createCheckpoint(undefined, 'now');
      expect(engine.diff(undefined, { revision: 1, documents: [{ key: 'a', content: '2' }], mode: 'replace' })).toEqual(
        {
          from_revision: 1,
          to_revision: 1,
          changes: [
            { key: 'a', type: 'update', before: '1', after: '2' },
            { key: 'b', type: 'delete', before: '1' },
          ],
        },
      );
      expect(engine.diff(undefined, { checkpoint: 'now', documents: [{ key: 'c', delete: true }] }).changes).toEqual([
        { key: 'c', type: 'delete', before: '3' },
      ]);
      expect(
        kindOf(() =>
          engine.diff(undefined, {
            documents: [
              { key: 'a', content: '1' },
              { key: 'a', content: '1' },
            ],
          }),
        ),
      ).toMatch(/^invalid/);
      expect(engine.state(undefined).revision).toBe(2);
    });
  });

  describe('checkpoints, rollback and restore', () => {
    it('points a checkpoint at the head, moves it when created again, and deletes it', () => {
      expect(engine.createCheckpoint(undefined, 'empty')).toEqual({ name: 'empty', revision_id: 0 });
      engine.applyDocuments(undefined, docs({ a: '1' }));
      expect(engine.createCheckpoint(undefined, 'cp', 'first')).toEqual({ name: 'cp', revision_id: 1 });
      engine.applyDocuments(undefined, docs({ a: '2' }));
      expect(engine.createCheckpoint(undefined, 'cp', 'moved')).toEqual({ name: 'cp', revision_id: 2 });
      expect(
        engine.checkpoints('default').checkpoints.map((c) => [c.name, c.revision_id, c.branch, c.description]),
      ).toEqual([
        ['cp', 2, 'main', 'moved'],
        ['empty', 0, '', ''],
      ]);
      expect(engine.state(undefined, { checkpoint: 'empty' })).toEqual({ revision: 0, objects: {} });
      engine.deleteCheckpoint('default', 'cp');
      expect(kindOf(() => engine.deleteCheckpoint('default', 'cp'))).toBe(
        'not_found: checkpoint "cp" does not exist in namespace "default"',
      );
      expect(kindOf(() => engine.deleteCheckpoint('nowhere', 'cp'))).toMatch(/^not_found/);
    });

    it('rolls back to a revision or a checkpoint as a new revision, deletes included', () => {
      engine.applyDocuments(undefined, docs({ a: '1' }));
      engine.createCheckpoint(undefined, 'one');
      engine.applyDocuments(undefined, docs({ a: '2', b: '2' }));
      expect(engine.rollback(undefined, { revision: 1 })).toEqual({
        revision: 3,
        noop: false,
        changes: [
          { key: 'a', type: 'update', before: '2', after: '1' },
          { key: 'b', type: 'delete', before: '2' },
        ],
      });
      // With no message of its own, it says what it rolled back to.
      expect(engine.log(undefined).entries[0]).toMatchObject({ id: 3, parent_id: 2, message: 'rollback to main@1' });
      expect(engine.rollback(undefined, { checkpoint: 'one' })).toEqual({ revision: 3, noop: true, changes: [] });
      expect(engine.rollback(undefined)).toEqual({ revision: 3, noop: true, changes: [] });
      expect(engine.rollback(undefined, { revision: 2, message: 'again' }).revision).toBe(4);
      expect(kindOf(() => engine.rollback(undefined, { revision: 99 }))).toMatch(/^not_found/);
      expect(kindOf(() => engine.rollback(undefined, { revision: 1, expectedRevision: 3 }))).toMatch(/^conflict/);
    });

    it('restores from a branch, a revision anywhere in the namespace, or a checkpoint, in that precedence', () => {
      engine.applyDocuments(undefined, docs({ a: '1' }));
      engine.applyDocuments({ branch: 'dev' }, docs({ d: '1' }));
      engine.createCheckpoint(undefined, 'main-1');
      expect(engine.restore(undefined, { fromRevision: 2 })).toMatchObject({
        revision: 3,
        changes: [
          { key: 'a', type: 'delete' },
          { key: 'd', type: 'create' },
        ],
      });
      expect(engine.log(undefined).entries[0].message).toBe('restore from dev@2');
      expect(engine.restore(undefined, { fromCheckpoint: 'main-1', fromBranch: 'dev', fromRevision: 2 })).toMatchObject(
        { revision: 4 },
      );
      expect(engine.log(undefined).entries[0].message).toBe('restore from checkpoint "main-1" (main@1)');
      expect(engine.state(undefined).objects).toEqual({ a: '1' });
      expect(engine.restore(undefined, { fromBranch: 'dev', fromRevision: 1 })).toMatchObject({ revision: 5 });
      expect(engine.state(undefined).objects).toEqual({ d: '1' });
      expect(engine.log(undefined).entries[0].message).toBe('restore from dev@2');
      expect(kindOf(() => engine.restore(undefined, { fromBranch: 'nope' }))).toBe(
        'not_found: branch "nope" does not exist in namespace "default"',
      );
      expect(kindOf(() => engine.restore(undefined, { fromRevision: 77 }))).toBe(
        'not_found: revision 77 does not exist in namespace "default"',
      );
      expect(kindOf(() => engine.restore(undefined, { fromCheckpoint: 'nope' }))).toMatch(/^not_found/);
      expect(engine.restore({ branch: 'fresh' }, { fromBranch: 'main' })).toMatchObject({
        revision: 6,
        changes: [{ key: 'd', type: 'create' }],
      });
    });
  });

  describe('keyframes and garbage collection', () => {
    const count = (sql: string): number => t.database.sqlite.prepare(sql).pluck().get() as number;

    it('writes a keyframe when change rows since the last reach max(64, documents), and for checkpoints', () => {
      for (let i = 0; i < 70; i++) engine.applyDocuments(undefined, [{ key: `k${i % 5}`, content: String(i) }]);
      expect(count('SELECT count(*) FROM store_revisions WHERE keyframe = 1')).toBe(1);
      expect(count('SELECT min(id) FROM store_revisions WHERE keyframe = 1')).toBe(64);
      engine.createCheckpoint(undefined, 'cp');
      expect(count('SELECT count(*) FROM store_revisions WHERE keyframe = 1')).toBe(2);
      for (let r = 1; r <= 70; r++)
        expect(engine.state(undefined, { revision: r }).objects[`k${(r - 1) % 5}`]).toBe(String(r - 1));
    });

    it('keeps the newest revisions, checkpoints and branch bases, all fully readable, and prunes nothing twice', async () => {
      const states = new Map<number, Record<string, string>>();
      for (let i = 0; i < 30; i++) {
        const r = engine.applyDocuments(undefined, [
          { key: `k${i % 4}`, content: `v${i}` },
          { key: `unique-${i}`, content: `u${i}` },
        ]);
        states.set(r.revision, engine.state(undefined).objects);
        if (i === 5) engine.createCheckpoint(undefined, 'old');
        if (i === 10) engine.createBranch(undefined, 'dev');
      }
      const blobsBefore = count('SELECT count(*) FROM store_blobs');
      const pruned = engine.gc(3).pruned;
      // 31 revisions: main's 30 and dev's 12. Kept: main's newest 3, dev's 12, checkpoint 6, dev's base 11.
      expect(pruned).toBe(31 - 6);
      expect(engine.gc(3)).toEqual({ pruned: 0 });
      // Contents nothing references go in slices after the transaction.
      await engine.contentSwept();
      expect(count('SELECT count(*) FROM store_blobs')).toBeLessThan(blobsBefore);
      const mainLog = engine.log(undefined).entries;
      expect(mainLog.map((e) => e.id)).toEqual([31, 30, 29, 11, 6]);
      expect(mainLog.find((e) => e.id === 29)?.parent_id).toBe(28);
      for (const id of [31, 30, 29, 11, 6]) {
        expect(engine.state(undefined, { revision: id }).objects).toEqual(states.get(id));
        expect(engine.diff(undefined, { revision: id }).to_revision).toBe(id);
      }
      expect(engine.state(undefined, { checkpoint: 'old' }).objects).toEqual(states.get(6));
      expect(engine.state({ branch: 'dev' }).objects).toEqual(states.get(11));
      expect(kindOf(() => engine.state(undefined, { revision: 20 }))).toMatch(/^not_found/);
      expect(engine.rollback(undefined, { revision: 6 }).changes.length).toBeGreaterThan(0);
      expect(engine.state(undefined).objects).toEqual(states.get(6));
    });

    it('never reads backwards from the head across a gap that gc left', () => {
      // Ten branch bases in a row keep main's old revisions 1..19; 21 goes, 22 stays as a root. Reading
      // 19 is cheaper backwards from the head (22) than forwards from nothing, but 21's changes are gone.
      for (let i = 0; i < 10; i++) {
        engine.applyDocuments(undefined, [{ key: 'a', content: String(i) }]);
        engine.createBranch(undefined, `b${i}`);
      }
      engine.applyDocuments(undefined, [{ key: 'b', content: 'gone with 21' }]);
      engine.applyDocuments(undefined, [{ key: 'a', content: 'head' }]);
      expect(engine.gc(1)).toEqual({ pruned: 1 });
      expect(engine.state(undefined, { revision: 19 }).objects).toEqual({ a: '9' });
      expect(engine.diff(undefined, { revision: 19 }).changes).toEqual([
        { key: 'a', type: 'update', before: 'head', after: '9' },
        { key: 'b', type: 'delete', before: 'gone with 21' },
      ]);
    });

    it('a dry run counts exactly what the real run then prunes, and writes nothing', () => {
      for (let i = 0; i < 40; i++) {
        engine.applyDocuments(undefined, [
          { key: `k${i % 3}`, content: `v${i}` },
          { key: `u${i}`, content: String(i) },
        ]);
        if (i === 7) engine.createCheckpoint(undefined, 'cp');
        if (i === 12) engine.createBranch(undefined, 'dev');
        if (i > 12 && i % 4 === 0) engine.applyDocuments({ branch: 'dev' }, [{ key: 'd', content: String(i) }]);
      }
      // Every table gc touches, so a write anywhere (keyframes, roots, deletions) would show.
      const snapshot = () =>
        ['store_revisions', 'store_revision_changes', 'store_snapshots', 'store_blobs', 'store_keys']
          .map((table) => count(`SELECT count(*) FROM ${table}`))
          .concat(
            count('SELECT count(*) FROM store_revisions WHERE keyframe = 1'),
            count('SELECT total(parent_id) FROM store_revisions'),
          );
      const before = snapshot();
      const logBefore = engine.log(undefined, { limit: 1000 });
      const stateBefore = engine.state(undefined, { revision: 5 });
      const dry = engine.gc(4, true).pruned;
      expect(dry).toBeGreaterThan(0);
      expect(engine.gc(4, true).pruned).toBe(dry);
      expect(snapshot()).toEqual(before);
      expect(engine.log(undefined, { limit: 1000 })).toEqual(logBefore);
      expect(engine.state(undefined, { revision: 5 })).toEqual(stateBefore);
      expect(engine.gc(4)).toEqual({ pruned: dry });
      expect(engine.gc(4, true)).toEqual({ pruned: 0 });
    });

    it('keeps 10 per branch when keep is 0', () => {
      for (let i = 0; i < 15; i++) engine.applyDocuments(undefined, [{ key: 'a', content: String(i) }]);
      expect(engine.gc(0)).toEqual({ pruned: 5 });
      expect(engine.log(undefined).entries.map((e) => e.id)).toEqual([15, 14, 13, 12, 11, 10, 9, 8, 7, 6]);
      expect(engine.state(undefined, { revision: 6 }).objects).toEqual({ a: '5' });
    });
  });
});
