import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestStore, type TestStore } from './app-helpers.js';

// A merge refused because its source moved carries that source's head as a field, as a moved target
// carries `head_revision`: a script retries with it without parsing the message.

describe('POST /v1/merge with an expected_from_revision the source moved past', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await buildTestStore();
  });
  afterEach(async () => store.close());

  const write = async (branch: string, key: string, content: string): Promise<number> => {
    const answer = await store.call('POST', '/v1/apply', {
      scope: { namespace: 'mg/source-head', branch },
      documents: [{ key, content }],
    });
    return JSON.parse(answer.body).revision as number;
  };

  it('answers 409 with error.from_head_revision, the source head a retry can name', async () => {
    const fork = await write('main', 'a', '0');
    const branched = await store.call('POST', '/v1/branches', {
      scope: { namespace: 'mg/source-head' },
      name: 'feature',
      from_revision: fork,
    });
    expect(branched.statusCode).toBe(200);
    const previewed = await write('feature', 'a', '1');
    const later = await write('feature', 'b', 'unseen');

    const merge = (expected: number) =>
      store.call('POST', '/v1/merge', {
        scope: { namespace: 'mg/source-head', branch: 'main' },
        from_branch: 'feature',
        expected_from_revision: expected,
      });
    const refused = await merge(previewed);
    expect(refused.statusCode).toBe(409);
    const error = JSON.parse(refused.body).error;
    expect(error).toMatchObject({ type: 'conflict_error', code: 409, from_head_revision: later });
    // The target did not move: its head is no part of this refusal.
    expect(error).not.toHaveProperty('head_revision');

    const retried = await merge(error.from_head_revision);
    expect(retried.statusCode).toBe(200);
    expect(JSON.parse(retried.body).from_revision).toBe(later);
  });
});
