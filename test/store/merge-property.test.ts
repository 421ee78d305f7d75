import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { socketStore } from './support/socket-store.js';

// Random small histories on three related branches (feature made from main, topic from feature), then a
// merge between two of them over HTTP. The outcome must follow the per-document rule against the state
// at the merge base the test itself recorded: source changed only → source's; target only, or both
// alike → target's; both differently → 409 and nothing written.

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

const history = fc.record({
  // Something to branch from: a branch that was never written cannot be branched.
  initial: fc.uniqueArray(fc.record({ key, content }), { minLength: 1, maxLength: 4, selector: (d) => d.key }),
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

function sortKeys(objects: Objects): Objects {
  return Object.fromEntries(Object.entries(objects).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
