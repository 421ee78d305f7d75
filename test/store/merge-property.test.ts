import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { socketStore } from './support/socket-store.js';

// Random small histories on three related branches (feature made from main, topic from feature), then a
// merge between two of them over HTTP. The outcome must follow the per-document rule against the state
// at the merge base the test itself recorded: source changed only → source's; target only, or both
// alike → target's; both differently → 409 and nothing written. A second property interleaves writes
// with repeated merges both ways and checks each against a model of the history as a graph in which a
// merge revision has two parents, as in Git.

type Doc = { key: string; content?: string; delete?: boolean };
type Objects = Record<string, string>;

const key = fc.constantFrom('a', 'b', 'c', 'd');
const content = fc.constantFrom('1', '2', '3', '');
const doc: fc.Arbitrary<Doc> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ key, content }) },
  { weight: 1, arbitrary: fc.record({ key, delete: fc.constant(true) }) },
);
const documents = fc.uniqueArray(doc, { minLength: 1, maxLength: 3, selector: (d) => d.key });
const writes = fc.array(documents, { maxLength: 3 });
const pair = fc.constantFrom(
  ['main', 'feature'],
  ['feature', 'main'],
  ['main', 'topic'],
  ['topic', 'main'],
  ['feature', 'topic'],
  ['topic', 'feature'],
) as fc.Arbitrary<[string, string]>;

const initial = fc.uniqueArray(fc.record({ key, content }), { minLength: 1, maxLength: 4, selector: (d) => d.key });
const history = fc.record({
  // Something to branch from: a branch that was never written cannot be branched.
  initial,
  feature: writes,
  topic: writes,
  mainAfterFork: writes,
  featureAfterTopic: writes,
  into: pair,
});

/** The per-document rule, or the keys that conflict. */
function expectedMerge(
  base: Objects,
  target: Objects,
  source: Objects,
): { objects: Objects } | { conflicts: string[] } {
  const objects: Objects = {};
  const conflicts: string[] = [];
  for (const k of new Set([...Object.keys(base), ...Object.keys(target), ...Object.keys(source)])) {
    const [b, t, s] = [base[k], target[k], source[k]];
    const result = s === b ? t : t === b || t === s ? s : undefined;
    if (s !== b && t !== b && t !== s) conflicts.push(k);
    else if (result !== undefined) objects[k] = result;
  }
  return conflicts.length > 0 ? { conflicts: conflicts.sort() } : { objects };
}

describe('merge, property-based', () => {
  const socket = socketStore();
  let run = 0;

  it('follows the per-document three-way rule on random histories', async () => {
    await fc.assert(
      fc.asyncProperty(history, async (h) => {
        const namespace = `prop/m${run++}`;
        const apply = async (branch: string, list: Doc[]) => {
          const answer = await socket.send('POST', '/v1/apply', { scope: { namespace, branch }, documents: list });
          expect(answer.status).toBe(200);
        };
        const state = async (branch: string, revision = 0) =>
          (await socket.send('GET', `/v1/state?namespace=${namespace}&branch=${branch}&revision=${revision}`)).body
            .objects as Objects;
        const branchFrom = async (from: string, name: string) =>
          (await socket.send('POST', '/v1/branches', { scope: { namespace, branch: from }, name })).body
            .base_revision as number;

        await apply('main', h.initial);
        const mainFork = await branchFrom('main', 'feature');
        for (const list of h.feature) await apply('feature', list);
        const featureFork = await branchFrom('feature', 'topic');
        for (const list of h.topic) await apply('topic', list);
        for (const list of h.mainAfterFork) await apply('main', list);
        for (const list of h.featureAfterTopic) await apply('feature', list);

        const [into, from] = h.into;
        const baseRevision = into === 'main' || from === 'main' ? mainFork : featureFork;
        const baseBranch = into === 'main' || from === 'main' ? 'main' : 'feature';
        const base = await state(baseBranch, baseRevision);
        const target = await state(into);
        const source = await state(from);
        const expected = expectedMerge(base, target, source);

        const answer = await socket.send('POST', '/v1/merge', {
          scope: { namespace, branch: into },
          from_branch: from,
        });
        if ('conflicts' in expected) {
          expect(answer.status).toBe(409);
          const message = (answer.body.error as { message: string }).message;
          for (const k of expected.conflicts) expect(message).toContain(`"${k}" (`);
          expect(await state(into)).toEqual(target);
          return;
        }
        expect(answer.status).toBe(200);
        expect(answer.body.merge_base).toBe(baseRevision);
        expect(answer.body.noop).toBe(JSON.stringify(sortKeys(expected.objects)) === JSON.stringify(sortKeys(target)));
        expect(sortKeys(await state(into))).toEqual(sortKeys(expected.objects));
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});

/** A revision of the model: its parents (a merge has two) and the state it holds. */
type Node = { readonly parents: readonly number[]; readonly objects: Objects };

/** Every revision `id` reaches, itself included. */
function reachOf(nodes: ReadonlyMap<number, Node>, id: number): Set<number> {
  const reached = new Set<number>();
  const pending = [id];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (next === 0 || reached.has(next)) continue;
    reached.add(next);
    pending.push(...nodes.get(next)!.parents);
  }
  return reached;
}

/** The best common ancestors of two revisions, newest first: common ones no other common one reaches. */
function bestCommon(nodes: ReadonlyMap<number, Node>, a: number, b: number): number[] {
  const fromB = reachOf(nodes, b);
  const common = [...reachOf(nodes, a)].filter((id) => fromB.has(id));
  return common
    .filter((id) => !common.some((other) => other !== id && reachOf(nodes, other).has(id)))
    .sort((x, y) => y - x);
}

/** The per-document rule against every base at once: a document merges only when all agree. */
function expectedOverBases(
  bases: readonly Objects[],
  target: Objects,
  source: Objects,
): { objects: Objects } | { conflicts: string[] } {
  const objects: Objects = { ...target };
  const conflicts: string[] = [];
  for (const k of new Set([...Object.keys(target), ...Object.keys(source)])) {
    const [t, s] = [target[k], source[k]];
    if (t === s) continue;
    const verdicts = new Set(bases.map((base) => (s === base[k] ? 'keep' : t === base[k] ? 'take' : 'conflict')));
    const [only] = verdicts;
    if (verdicts.size > 1 || only === 'conflict') conflicts.push(k);
    else if (only === 'take' && s === undefined) delete objects[k];
    else if (only === 'take') objects[k] = s;
  }
  return conflicts.length > 0 ? { conflicts: conflicts.sort() } : { objects };
}

// Each step writes to a branch or two, then merges: most merges then have something to take.
const write = fc.record({ branch: fc.constantFrom('main', 'feature', 'topic'), documents });
const step = fc.record({ writes: fc.array(write, { maxLength: 2 }), merge: pair });
const interleaved = fc.record({
  initial,
  steps: fc.array(step, { minLength: 2, maxLength: 10 }),
});

describe('repeated merges, property-based', () => {
  const socket = socketStore();
  let run = 0;

  it('finds the merge base a graph of merge parents gives, merging again and again both ways', async () => {
    await fc.assert(
      fc.asyncProperty(interleaved, async ({ initial, steps }) => {
        const namespace = `prop/r${run++}`;
        const nodes = new Map<number, Node>();
        const heads = new Map<string, number>();
        const objectsAt = (id: number): Objects => (id === 0 ? {} : nodes.get(id)!.objects);
        const state = async (branch: string) =>
          (await socket.send('GET', `/v1/state?namespace=${namespace}&branch=${branch}`)).body.objects as Objects;
        const apply = async (branch: string, list: Doc[]) => {
          const answer = await socket.send('POST', '/v1/apply', { scope: { namespace, branch }, documents: list });
          expect(answer.status).toBe(200);
          if (answer.body.noop) return;
          const head = heads.get(branch)!;
          const objects = { ...objectsAt(head) };
          for (const d of list) {
            if (d.delete) delete objects[d.key];
            else objects[d.key] = d.content!;
          }
          nodes.set(answer.body.revision as number, { parents: [head], objects });
          heads.set(branch, answer.body.revision as number);
        };
        const branchFrom = async (from: string, name: string) => {
          const answer = await socket.send('POST', '/v1/branches', { scope: { namespace, branch: from }, name });
          const head = answer.body.head_revision as number;
          nodes.set(head, { parents: [heads.get(from)!], objects: objectsAt(heads.get(from)!) });
          heads.set(name, head);
        };

        heads.set('main', 0);
        await apply('main', initial);
        await branchFrom('main', 'feature');
        await branchFrom('feature', 'topic');
        for (const next of steps) {
          for (const w of next.writes) await apply(w.branch, w.documents);
          const [into, from] = next.merge;
          const [targetHead, sourceHead] = [heads.get(into)!, heads.get(from)!];
          const bases = bestCommon(nodes, targetHead, sourceHead);
          const target = objectsAt(targetHead);
          const answer = await socket.send('POST', '/v1/merge', {
            scope: { namespace, branch: into },
            from_branch: from,
          });
          const expected = expectedOverBases(
            bases.length > 0 ? bases.map(objectsAt) : [{}],
            target,
            objectsAt(sourceHead),
          );
          if ('conflicts' in expected) {
            expect(answer.status).toBe(409);
            const message = (answer.body.error as { message: string }).message;
            for (const k of expected.conflicts) expect(message).toContain(`"${k}" (`);
            expect(await state(into)).toEqual(target);
            continue;
          }
          expect(answer.status).toBe(200);
          expect(answer.body.merge_base).toBe(bases[0] ?? 0);
          const unchanged = JSON.stringify(sortKeys(expected.objects)) === JSON.stringify(sortKeys(target));
          expect(answer.body.noop).toBe(unchanged);
          // A merge that writes nothing records nothing: the model gets no merge revision either.
          if (!unchanged) {
            nodes.set(answer.body.revision as number, { parents: [targetHead, sourceHead], objects: expected.objects });
            heads.set(into, answer.body.revision as number);
          }
          expect(sortKeys(await state(into))).toEqual(sortKeys(objectsAt(heads.get(into)!)));
        }
      }),
      { numRuns: 80 },
    );
  }, 120_000);
});

function sortKeys(objects: Objects): Objects {
  return Object.fromEntries(Object.entries(objects).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
