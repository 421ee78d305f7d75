import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, buildTestStore, type TestStore } from './app-helpers.js';

// The store over a real loopback socket: a whole session across every endpoint, and concurrent writers.

describe('store over a real socket', () => {
  let store: TestStore;
  let base: string;
  beforeAll(async () => {
    store = await buildTestStore();
    base = await store.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => store.close());

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text.startsWith('{') ? JSON.parse(text) : text };
  };

  it('runs a session over every endpoint', async () => {
    const scope = { namespace: 'team/app/config', branch: 'main' };
    expect((await call('GET', '/healthz')).body).toBe('ok');
    expect((await call('GET', '/readyz')).status).toBe(200);
    expect(
      (await call('POST', '/v1/apply', { scope, documents: [{ key: 'db.yaml', content: 'host: a' }], message: 'init' }))
        .body.revision,
    ).toBe(1);
    expect((await call('POST', '/v1/checkpoints', { scope, name: 'stable', description: 'known good' })).body).toEqual({
      name: 'stable',
      revision_id: 1,
    });
    expect(
      (await call('POST', '/v1/apply', { scope, documents: [{ key: 'db.yaml', content: 'host: b' }] })).body.revision,
    ).toBe(2);
    expect((await call('POST', '/v1/diff', { scope, checkpoint_name: 'stable' })).body.changes).toEqual([
      { key: 'db.yaml', type: 'update', before: 'host: b', after: 'host: a' },
    ]);
    expect(
      (await call('GET', '/v1/state?namespace=team/app/config&branch=main&checkpoint=stable')).body.objects,
    ).toEqual({ 'db.yaml': 'host: a' });
    expect((await call('GET', '/v1/log?namespace=team/app/config&branch=main&limit=1')).body.next_cursor).toBe(2);
    expect((await call('POST', '/v1/branches', { scope, name: 'canary' })).body).toEqual({
      name: 'canary',
      base_revision: 2,
      head_revision: 3,
    });
    expect(
      (await call('GET', '/v1/branches?namespace=team/app/config&branch=canary')).body.branches.find(
        (b: { current: boolean }) => b.current,
      ).name,
    ).toBe('canary');
    expect((await call('POST', '/v1/rollback', { scope, checkpoint_name: 'stable' })).body).toMatchObject({
      revision: 4,
      noop: false,
    });
    expect((await call('POST', '/v1/restore', { scope, from_branch: 'canary' })).body).toMatchObject({
      revision: 5,
      noop: false,
    });
    expect((await call('GET', '/v1/revisions/5?namespace=team/app/config')).body.message).toBe('restore from canary@3');
    expect((await call('DELETE', '/v1/checkpoints', { namespace: 'team/app/config', name: 'stable' })).body).toEqual(
      {},
    );
    expect((await call('POST', '/v1/gc', { keep: 1 })).body.pruned).toBeGreaterThan(0);
    expect((await call('GET', '/v1/namespaces')).body.namespaces.map((n: { name: string }) => n.name)).toContain(
      'team/app/config',
    );
    const metrics = await call('GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.body).toContain('svc_operations_total{operation="gc",result="success"} 1');
    const missing = await call('GET', '/v1/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.error.type).toBe('not_found_error');
    expect(missing.headers.get('x-request-id')).toBeTruthy();
  });

  it('serialises concurrent writers to one branch: no update is lost', async () => {
    const scope = { namespace: 'concurrent', branch: 'main' };
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        call('POST', '/v1/apply', { scope, documents: [{ key: `k${i}`, content: String(i) }] }),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.map((r) => r.body.revision).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    expect(Object.keys((await call('GET', '/v1/state?namespace=concurrent')).body.objects)).toHaveLength(40);
  });

  it('lets exactly one of several writers expecting the same head win', async () => {
    const scope = { namespace: 'cas', branch: 'main' };
    await call('POST', '/v1/apply', { scope, documents: [{ key: 'counter', content: '0' }] });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call('POST', '/v1/apply', {
          scope,
          documents: [{ key: 'counter', content: String(i + 1) }],
          expected_revision: 1,
        }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
  });
});
