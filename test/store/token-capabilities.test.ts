import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, buildTestStore, type TestStore } from './app-helpers.js';

// GET /v1/token tells a caller what its token may do before it tries, for any valid token (a
// write-only one included), and never echoes the token.

const PUSHER = 'st-ci-pusher-0123456789abcdef';
const READER = 'st-team-reader-0123456789abcdef';

describe('GET /v1/token', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await buildTestStore({
      tokens: [
        { name: 'admin', token: ADMIN_TOKEN, verbs: ['read', 'write', 'admin'], namespaces: ['*'] },
        { name: 'ci', token: PUSHER, verbs: ['write'], namespaces: ['team/app'] },
        { name: 'team-reader', token: READER, verbs: ['read'], namespaces: ['team/*'] },
      ],
    });
  });
  afterAll(async () => store.close());

  it("names the caller's grants, to a write-only token too, without the token", async () => {
    const answer = await store.call('GET', '/v1/token', undefined, PUSHER);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ auth: true, name: 'ci', verbs: ['write'], namespaces: ['team/app'] });
    expect(answer.body).not.toContain(PUSHER);
  });

  it('says which verbs the token holds on a namespace, none where it is not granted', async () => {
    const on = async (namespace: string) =>
      (await store.call('GET', `/v1/token?namespace=${encodeURIComponent(namespace)}`, undefined, READER)).json();
    expect((await on('team/app/config')).namespace).toEqual({ name: 'team/app/config', verbs: ['read'] });
    expect((await on('teams')).namespace).toEqual({ name: 'teams', verbs: [] });
    // An empty namespace is `default`, as on every other endpoint.
    expect((await on('')).namespace).toEqual({ name: 'default', verbs: [] });
    const admin = await store.call('GET', '/v1/token?namespace=teams');
    expect(admin.json().namespace).toEqual({ name: 'teams', verbs: ['read', 'write', 'admin'] });
  });

  it('refuses a missing or unknown token, and a malformed namespace or unknown parameter, naming it', async () => {
    expect((await store.call('GET', '/v1/token', undefined, null)).statusCode).toBe(401);
    expect((await store.call('GET', '/v1/token', undefined, 'st-unknown-0123456789abcdef')).statusCode).toBe(401);
    const badName = await store.call('GET', '/v1/token?namespace=..%2Fetc');
    expect(badName.statusCode).toBe(400);
    expect(badName.json().error.message).toContain('namespace');
    const unknown = await store.call('GET', '/v1/token?verb=read');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toContain('verb');
  });
});

describe('GET /v1/token with store auth off', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await buildTestStore({ auth: false });
  });
  afterAll(async () => store.close());

  it('says so, and that every request is granted everything', async () => {
    const answer = await store.call('GET', '/v1/token?namespace=any/where', undefined, null);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      auth: false,
      name: null,
      verbs: ['read', 'write', 'admin'],
      namespaces: ['*'],
      namespace: { name: 'any/where', verbs: ['read', 'write', 'admin'] },
    });
  });
});
