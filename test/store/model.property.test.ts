import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DocumentInput } from '../../src/shared/store-api.js';
import { StoreError } from '../../src/server/store/engine/errors.js';
import type { StoreEngine } from '../../src/server/store/engine/store-engine.js';
import { openTempEngine } from './helpers.js';
import { diffStates, ModelError, StoreModel } from './support/store-model.js';

// Random sequences of store operations run against the engine (over a real database) and against a
// naive in-memory model; after every step, state, diff and log of every retained revision must agree.
// A low keyframe interval makes keyframe boundaries, forward and backward reconstruction all common.

type Selector = { kind: 'none' } | { kind: 'existing'; n: number } | { kind: 'raw'; n: number };

type Op =
  | { op: 'apply'; ns: string; branch: string; docs: DocumentInput[]; mode: 'merge' | 'replace' }
  | {
      op: 'preview';
      ns: string;
      branch: string;
      rev: Selector;
      cp: string;
      docs: DocumentInput[];
      mode: 'merge' | 'replace';
    }
  | { op: 'branch'; ns: string; from: string; name: string; rev: Selector; cp: string }
  | { op: 'checkpoint'; ns: string; branch: string; name: string }
  | { op: 'deleteCheckpoint'; ns: string; name: string }
  | { op: 'rollback'; ns: string; branch: string; rev: Selector; cp: string }
  | { op: 'restore'; ns: string; branch: string; fromBranch: string; rev: Selector; cp: string }
  | { op: 'gc'; keep: number };

const ns = fc.constantFrom('default', 'default', 'default', 'team/a');
const branch = fc.constantFrom('main', 'main', 'main', 'dev', 'x/y');
const cp = fc.constantFrom('', '', 'cp1', 'cp2');
const key = fc.constantFrom('a', 'b', 'c', 'd', 'e', '\u{1F600}', '\uFF5E');
const content = fc.constantFrom('', '1', '2', '3', 'long '.repeat(20));
const doc: fc.Arbitrary<DocumentInput> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ key, content }) },
  { weight: 1, arbitrary: fc.record({ key, delete: fc.constant(true) }) },
);
const docs = fc.uniqueArray(doc, { minLength: 1, maxLength: 5, selector: (d) => d.key });
const mode = fc.constantFrom<'merge' | 'replace'>('merge', 'merge', 'merge', 'replace');
const selector: fc.Arbitrary<Selector> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: 'none' as const }) },
  { weight: 3, arbitrary: fc.nat(1000).map((n) => ({ kind: 'existing' as const, n })) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 60 }).map((n) => ({ kind: 'raw' as const, n })) },
);

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 12, arbitrary: fc.record({ op: fc.constant('apply' as const), ns, branch, docs, mode }) },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('preview' as const), ns, branch, rev: selector, cp, docs, mode }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('branch' as const), ns, from: branch, name: branch, rev: selector, cp }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('checkpoint' as const), ns, branch, name: fc.constantFrom('cp1', 'cp2') }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('deleteCheckpoint' as const), ns, name: fc.constantFrom('cp1', 'cp2') }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('rollback' as const), ns, branch, rev: selector, cp }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('restore' as const),
      ns,
      branch,
      fromBranch: fc.constantFrom('', '', 'main', 'dev', 'nope'),
      rev: selector,
      cp,
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('gc' as const), keep: fc.constantFrom(0, 1, 2, 3, 5) }) },
);

/** Runs `fn` and returns its result or the kind of the expected error it threw. */
function outcome<T>(fn: () => T): T | { error: string } {
  try {
    return fn();
  } catch (error) {
    if (error instanceof StoreError || error instanceof ModelError) return { error: error.kind };
    throw error;
  }
}

function resolve(selector: Selector, candidates: number[]): number {
  if (selector.kind === 'none') return 0;
  if (selector.kind === 'raw') return selector.n;
  return candidates.length === 0 ? 0 : candidates[selector.n % candidates.length];
}

function step(model: StoreModel, engine: StoreEngine, o: Op): void {
  const compare = <T>(expected: () => T, actual: () => T) => expect(outcome(actual)).toEqual(outcome(expected));
  switch (o.op) {
    case 'apply':
      return compare(
        () => model.applyDocuments(o.ns, o.branch, o.docs, o.mode),
        () => engine.applyDocuments({ namespace: o.ns, branch: o.branch }, o.docs, { mode: o.mode }),
      );
    case 'preview': {
      const revision = resolve(o.rev, model.revisionsOf(o.ns, o.branch));
      const expected = () => {
        const { revision: target, objects } = model.stateSelected(o.ns, o.branch, revision, o.cp);
        const next = new Map(o.mode === 'replace' ? [] : Object.entries(objects));
        for (const d of o.docs) {
          if (d.delete) next.delete(d.key);
          else next.set(d.key, d.content ?? '');
        }
        return {
          from_revision: target,
          to_revision: target,
          changes: diffStates(new Map(Object.entries(objects)), next),
        };
      };
      return compare(expected, () =>
        engine.diff(
          { namespace: o.ns, branch: o.branch },
          { revision, checkpoint: o.cp, documents: o.docs, mode: o.mode },
        ),
      );
    }
    case 'branch': {
      const revision = resolve(o.rev, model.revisionsOf(o.ns, o.from));
      return compare(
        () => model.createBranch(o.ns, o.from, o.name, revision, o.cp),
        () =>
          engine.createBranch({ namespace: o.ns, branch: o.from }, o.name, {
            fromRevision: revision,
            fromCheckpoint: o.cp,
          }),
      );
    }
    case 'checkpoint':
      return compare(
        () => model.checkpoint(o.ns, o.branch, o.name),
        () => engine.createCheckpoint({ namespace: o.ns, branch: o.branch }, o.name),
      );
    case 'deleteCheckpoint':
      return compare(
        () => model.deleteCheckpoint(o.ns, o.name),
        () => engine.deleteCheckpoint(o.ns, o.name),
      );
    case 'rollback': {
      const revision = resolve(o.rev, model.revisionsOf(o.ns, o.branch));
      return compare(
        () => model.rollback(o.ns, o.branch, revision, o.cp),
        () => engine.rollback({ namespace: o.ns, branch: o.branch }, { revision, checkpoint: o.cp }),
      );
    }
    case 'restore': {
      const revision = resolve(o.rev, model.allRevisions(o.ns));
      return compare(
        () => model.restore(o.ns, o.branch, { branch: o.fromBranch, revision, checkpoint: o.cp }),
        () =>
          engine.restore(
            { namespace: o.ns, branch: o.branch },
            { fromBranch: o.fromBranch, fromRevision: revision, fromCheckpoint: o.cp },
          ),
      );
    }
    case 'gc':
      return compare(
        () => ({ pruned: model.gc(o.keep) }),
        () => engine.gc(o.keep),
      );
  }
}

const bytewise = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** Every scope: head state, every retained revision's state and diff, the log, and the branch list. */
function verify(model: StoreModel, engine: StoreEngine): void {
  for (const { namespace, branch } of model.scopes()) {
    const scope = { namespace, branch };
    const head = engine.state(scope);
    expect(head).toEqual({ revision: model.head(namespace, branch), objects: model.objects(namespace, branch) });
    expect(Object.keys(head.objects)).toEqual(Object.keys(head.objects).sort(bytewise));
    const log = engine.log(scope, { limit: 1000 }).entries.map(({ created_at: _, ...entry }) => entry);
    expect(log).toEqual(model.log(namespace, branch));
    for (const revision of model.revisionsOf(namespace, branch)) {
      expect(engine.state(scope, { revision }).objects).toEqual(model.objects(namespace, branch, revision));
      expect(engine.diff(scope, { revision })).toEqual(model.diff(namespace, branch, revision, ''));
    }
    const names = model
      .scopes()
      .filter((s) => s.namespace === namespace)
      .map((s) => s.branch)
      .sort(bytewise);
    expect(engine.branches(scope).branches.map((b) => [b.name, b.head_revision, b.current])).toEqual(
      names.map((name) => [name, model.head(namespace, name), name === branch]),
    );
  }
}

const RUNS = Number(process.env.STORE_PROPERTY_RUNS ?? 40);

describe('store engine against an in-memory model', () => {
  it('agrees on state, diff and log after every step, including after gc', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1, 2, 3, 5, 64),
        fc.array(op, { minLength: 1, maxLength: 60, size: 'max' }),
        (keyframeInterval, ops) => {
          const t = openTempEngine({ keyframeInterval });
          try {
            const model = new StoreModel();
            for (const o of ops) {
              step(model, t.engine, o);
              verify(model, t.engine);
            }
          } finally {
            t.close();
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});
