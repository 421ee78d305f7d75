import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestStore, type TestStore } from './app-helpers.js';

// A required field left out is called missing, and a field of the wrong type a wrong type, in the
// store's own words rather than zod's ("Invalid input: expected string, received undefined").

describe('missing and mistyped text fields', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await buildTestStore();
  });
  afterAll(async () => store.close());

  const message = async (method: 'POST' | 'DELETE', url: string, body: unknown) => {
    const response = await store.call(method, url, body);
    expect(response.statusCode).toBe(400);
    return (response.json() as { error: { message: string } }).error.message;
  };

  it('says a required name or key is required', async () => {
    expect(await message('DELETE', '/v1/checkpoints', { namespace: 'team/app' })).toBe('name: is required');
    expect(await message('POST', '/v1/checkpoints', { scope: { namespace: 'team/app' } })).toBe('name: is required');
    expect(await message('POST', '/v1/branches', { scope: { namespace: 'team/app' } })).toBe('name: is required');
    expect(await message('POST', '/v1/apply', { documents: [{ content: 'x' }] })).toBe('documents[0].key: is required');
  });

  it('says a name, scope part or message of another type must be a string', async () => {
    expect(
      await message('POST', '/v1/apply', { scope: { namespace: 5 }, documents: [{ key: 'a', content: 'x' }] }),
    ).toBe('scope.namespace: must be a string');
    expect(await message('POST', '/v1/apply', { documents: [{ key: 'a', content: 'x' }], message: null })).toBe(
      'message: must be a string',
    );
    expect(await message('POST', '/v1/rollback', { checkpoint_name: ['v1'] })).toBe(
      'checkpoint_name: must be a string',
    );
  });

  it("calls a diff's documents that are no list what apply calls them", async () => {
    for (const documents of [null, 'a.txt', { key: 'a' }]) {
      expect(await message('POST', '/v1/diff', { documents })).toBe('documents must be an array of documents');
      expect(await message('POST', '/v1/apply', { documents })).toBe('documents must be an array of documents');
    }
  });
});
