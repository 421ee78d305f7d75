import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestStore, type TestStore } from '../app-helpers.js';

// Endpoints that take a JSON body read nothing from the query string. A script that puts the scope or
// a selector there, as GET /v1/state takes them, must be told so rather than have them ignored: the
// write would land in `default`/`main`, and `?dry_run=true` on gc would run a real one.

describe('query parameters on endpoints that take a JSON body', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await buildTestStore();
    for (const content of ['1', '2', '3']) {
      await store.call('POST', '/v1/apply', { scope: { namespace: 'team/app' }, documents: [{ key: 'a', content }] });
    }
  });
  afterAll(async () => store.close());

  const refusal = (message: string) => ({ error: { type: 'invalid_request_error', code: 400, message } });

  it('refuses them on a write, naming them, and writes nothing', async () => {
    const response = await store.call('POST', '/v1/apply?namespace=team/app&branch=dev', {
      documents: [{ key: 'b', content: 'x' }],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(
      refusal(
        'querystring: unknown parameters "namespace", "branch"; this endpoint takes none: send its fields in the JSON body',
      ),
    );
    expect((await store.call('GET', '/v1/state?namespace=default')).json()).toEqual({ revision: 0, objects: {} });
  });

  it('refuses a dry run asked for in the query rather than running a real gc', async () => {
    const response = await store.call('POST', '/v1/gc?keep=1&dry_run=true', {});
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('"keep", "dry_run"');
    expect((await store.call('GET', '/v1/log?namespace=team/app')).json().total).toBe(3);
  });

  it('refuses them on every other endpoint with a body', async () => {
    const calls: [method: 'POST' | 'DELETE', path: string, body: unknown][] = [
      ['POST', '/v1/diff', { scope: { namespace: 'team/app' }, revision_id: 1 }],
      ['POST', '/v1/rollback', { scope: { namespace: 'team/app' }, revision_id: 1 }],
      ['POST', '/v1/restore', { scope: { namespace: 'team/app' }, from_revision: 1 }],
      ['POST', '/v1/branches', { scope: { namespace: 'team/app' }, name: 'feature' }],
      ['POST', '/v1/checkpoints', { scope: { namespace: 'team/app' }, name: 'v1' }],
      ['DELETE', '/v1/checkpoints', { namespace: 'team/app', name: 'v1' }],
      ['DELETE', '/v1/branches', { namespace: 'team/app', name: 'feature' }],
    ];
    for (const [method, path, body] of calls) {
      const response = await store.call(method, `${path}?x=1`, body);
      expect({ path, status: response.statusCode }).toEqual({ path, status: 400 });
      expect(response.json().error.message).toContain('unknown parameter "x"');
    }
    // Nothing above was written: the same calls without the query go through.
    for (const [method, path, body] of calls) {
      expect({ path, status: (await store.call(method, path, body)).statusCode }).toEqual({ path, status: 200 });
    }
  });
});
