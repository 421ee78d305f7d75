import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, buildTestStore, type TestStore } from './app-helpers.js';

// What docs/store.md says a subtree grant covers: `team/*` is `team` itself and everything below it,
// never a sibling whose name merely starts the same way.

const READER = 'st-team-reader-0123456789abcdef';

describe('a subtree namespace grant', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await buildTestStore({
      tokens: [
        { name: 'admin', token: ADMIN_TOKEN, verbs: ['read', 'write', 'admin'], namespaces: ['*'] },
        { name: 'team-reader', token: READER, verbs: ['read'], namespaces: ['team/*'] },
      ],
    });
  });
  afterAll(async () => store.close());

  const read = async (namespace: string) =>
    (await store.call('GET', `/v1/state?namespace=${namespace}`, undefined, READER)).statusCode;

  it('covers the namespace it names and every namespace below it', async () => {
    for (const namespace of ['team', 'team/app', 'team/app/config']) expect(await read(namespace)).toBe(200);
  });

  it('covers no sibling, whatever its name starts with', async () => {
    for (const namespace of ['teams', 'team-b', 'teamx/app', 'other/team']) expect(await read(namespace)).toBe(403);
  });
});
