import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, buildTestStore, type TestStore } from '../app-helpers.js';

// POST /v1/gc, GET /v1/namespaces, bearer-token permissions on every route, health, readiness, metrics.

const READER = 'st-reader-token-0123456789abcdef';
const TEAM_WRITER = 'st-team-writer-0123456789abcdef';
const errorOf = (body: string) => JSON.parse(body).error as { type: string; message: string; code: number };

describe('store admin routes, auth and operations endpoints', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await buildTestStore({
      tokens: [
        { name: 'admin', token: ADMIN_TOKEN, verbs: ['read', 'write', 'admin'], namespaces: ['*'] },
        { name: 'reader', token: READER, verbs: ['read'], namespaces: ['*'] },
        { name: 'team', token: TEAM_WRITER, verbs: ['read', 'write'], namespaces: ['team/*'] },
      ],
    });
    for (let i = 0; i < 5; i++)
      await store.call('POST', '/v1/apply', {
        scope: { namespace: 'team/app' },
        documents: [{ key: 'a', content: String(i) }],
      });
    await store.call('POST', '/v1/apply', { scope: { namespace: 'other' }, documents: [{ key: 'a', content: 'x' }] });
  });
  afterAll(async () => store.close());

  describe('POST /v1/gc', () => {
    it('needs the admin permission', async () => {
      const response = await store.call('POST', '/v1/gc', { keep: 1 }, READER);
      expect(response.statusCode).toBe(403);
      expect(errorOf(response.body)).toEqual({
        type: 'permission_error',
        code: 403,
        message: 'token "reader" lacks the admin permission',
      });
    });

    it('keeps the newest revisions and reports how many went; a second run prunes nothing', async () => {
      const logBefore = (await store.call('GET', '/v1/log?namespace=team/app')).json();
      // dry_run (Gatehouse extension) counts what the real run prunes, and deletes nothing.
      expect((await store.call('POST', '/v1/gc', { keep: 2, dry_run: true })).json()).toEqual({
        pruned: 3,
        free_bytes: expect.any(Number),
      });
      expect((await store.call('POST', '/v1/gc', { keep: 2, dry_run: true }, READER)).statusCode).toBe(403);
      expect((await store.call('GET', '/v1/log?namespace=team/app')).json()).toEqual(logBefore);
      expect((await store.call('GET', '/v1/state?namespace=team/app&revision=1')).json().objects).toEqual({ a: '0' });
      expect((await store.call('POST', '/v1/gc', { keep: 2 })).json()).toEqual({
        pruned: 3,
        free_bytes: expect.any(Number),
      });
      expect((await store.call('POST', '/v1/gc', { keep: 2 })).json()).toEqual({
        pruned: 0,
        free_bytes: expect.any(Number),
      });
      expect((await store.call('POST', '/v1/gc')).json()).toEqual({ pruned: 0, free_bytes: expect.any(Number) });
      expect((await store.call('GET', '/v1/state?namespace=team/app&revision=4')).json().objects).toEqual({ a: '3' });
      const log = (await store.call('GET', '/v1/log?namespace=team/app')).json();
      expect(log.entries.map((e: { id: number; parent_id: number }) => [e.id, e.parent_id])).toEqual([
        [5, 4],
        [4, 3],
      ]);
    });

    it('answers 400 for a negative or non-integer keep', async () => {
      expect(errorOf((await store.call('POST', '/v1/gc', { keep: -1 })).body)).toMatchObject({
        code: 400,
        message: expect.stringMatching(/keep must not be negative/),
      });
      expect((await store.call('POST', '/v1/gc', { keep: 1.5 })).statusCode).toBe(400);
    });

    it('answers 400 for a dry_run that is not a boolean', async () => {
      expect(errorOf((await store.call('POST', '/v1/gc', { dry_run: 'yes' })).body)).toMatchObject({
        code: 400,
        message: expect.stringMatching(/dry_run must be a boolean/),
      });
    });
  });

  describe('GET /v1/namespaces', () => {
    it('lists namespaces with their sizes, only those the token may read', async () => {
      const all = (await store.call('GET', '/v1/namespaces')).json();
      expect(all.namespaces).toEqual([
        { name: 'other', branches: 1, revisions: 1, checkpoints: 0, head_revision: 1, created_at: expect.any(String) },
        {
          name: 'team/app',
          branches: 1,
          revisions: 2,
          checkpoints: 0,
          head_revision: 5,
          created_at: expect.any(String),
        },
      ]);
      const team = (await store.call('GET', '/v1/namespaces', undefined, TEAM_WRITER)).json();
      expect(team.namespaces.map((n: { name: string }) => n.name)).toEqual(['team/app']);
      const page = (await store.call('GET', '/v1/namespaces?limit=1')).json();
      expect(page).toMatchObject({ namespaces: [{ name: 'other' }], next_cursor: 'other' });
    });
  });

  describe('bearer tokens', () => {
    it('answers 401 without a token or with an unknown one', async () => {
      const missing = await store.call('GET', '/v1/state', undefined, null);
      expect(missing.statusCode).toBe(401);
      expect(errorOf(missing.body).type).toBe('authentication_error');
      expect(
        (await store.call('POST', '/v1/apply', { documents: [] }, 'st-wrong-token-0123456789abcdef')).statusCode,
      ).toBe(401);
    });

    it('answers 403 for a verb or namespace not granted, on every kind of route', async () => {
      const cases: [string, 'GET' | 'POST' | 'DELETE', string, unknown][] = [
        [
          'write with a read token',
          'POST',
          '/v1/apply',
          { scope: { namespace: 'team/app' }, documents: [{ key: 'a', content: 'y' }] },
        ],
        ['rollback with a read token', 'POST', '/v1/rollback', { scope: { namespace: 'team/app' }, revision_id: 4 }],
        ['restore with a read token', 'POST', '/v1/restore', { scope: { namespace: 'team/app' }, from_revision: 4 }],
        ['branch with a read token', 'POST', '/v1/branches', { scope: { namespace: 'team/app' }, name: 'x' }],
        ['checkpoint with a read token', 'POST', '/v1/checkpoints', { scope: { namespace: 'team/app' }, name: 'x' }],
        ['checkpoint delete with a read token', 'DELETE', '/v1/checkpoints', { namespace: 'team/app', name: 'x' }],
      ];
      for (const [, method, url, body] of cases)
        expect((await store.call(method, url, body, READER)).statusCode).toBe(403);
      const outside = await store.call('GET', '/v1/state?namespace=other', undefined, TEAM_WRITER);
      expect(outside.statusCode).toBe(403);
      expect(errorOf(outside.body).message).toBe('token "team" is not granted namespace "other"');
      // A scope left out means namespace "default", which the team token is not granted either.
      expect(
        (await store.call('POST', '/v1/apply', { documents: [{ key: 'a', content: 'x' }] }, TEAM_WRITER)).statusCode,
      ).toBe(403);
      expect((await store.call('GET', '/v1/state', undefined, TEAM_WRITER)).statusCode).toBe(403);
      expect((await store.call('GET', '/v1/log', undefined, TEAM_WRITER)).statusCode).toBe(403);
      expect(
        (
          await store.call(
            'POST',
            '/v1/apply',
            { scope: { namespace: 'team/b' }, documents: [{ key: 'a', content: 'x' }] },
            TEAM_WRITER,
          )
        ).statusCode,
      ).toBe(200);
      expect((await store.call('POST', '/v1/diff', { scope: { namespace: 'team/app' } }, READER)).statusCode).toBe(200);
    });

    it('is off only when configuration disables it', async () => {
      const open = await buildTestStore({ auth: false });
      try {
        expect(
          (await open.call('POST', '/v1/apply', { documents: [{ key: 'a', content: 'x' }] }, null)).statusCode,
        ).toBe(200);
      } finally {
        await open.close();
      }
    });
  });

  describe('health, readiness and metrics', () => {
    it('answers /healthz ok and /readyz without a token, with a request id', async () => {
      const health = await store.call('GET', '/healthz', undefined, null);
      expect(health.statusCode).toBe(200);
      expect(health.body).toBe('ok');
      expect(health.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect((await store.call('GET', '/readyz', undefined, null)).statusCode).toBe(200);
    });

    it('serves the metrics of the document, behind the token', async () => {
      await store.call('POST', '/v1/apply', {
        scope: { namespace: 'team/app' },
        documents: [{ key: 'metrics', content: 'x' }],
      });
      await store.call('POST', '/v1/apply', {
        scope: { namespace: 'team/app' },
        documents: [{ key: 'metrics', content: 'x' }],
      });
      await store.call('GET', '/v1/state?namespace=team/app&revision=1');
      expect((await store.call('GET', '/metrics', undefined, null)).statusCode).toBe(401);
      const text = (await store.call('GET', '/metrics')).body;
      expect(text).toMatch(/^svc_http_requests_total\{route="\/v1\/apply",method="POST",status="200"\} \d+$/m);
      expect(text).toMatch(/^svc_http_request_duration_seconds_bucket\{.*route="\/v1\/state".*\} \d+$/m);
      expect(text).toMatch(/^svc_operation_duration_seconds_count\{operation="apply",result="success"\} \d+$/m);
      expect(text).toMatch(/^svc_operation_duration_seconds_count\{operation="state",result="error"\} 1$/m);
      expect(text).toMatch(/^svc_operations_total\{operation="apply",result="noop"\} \d+$/m);
      expect(text).toMatch(/^svc_changed_documents_total\{operation="apply"\} \d+$/m);
      expect(text).not.toContain(ADMIN_TOKEN);
    });

    it('answers /readyz 503 when the database is unavailable', async () => {
      const broken = await buildTestStore();
      broken.database.close();
      const response = await broken.call('GET', '/readyz', undefined, null);
      expect(response.statusCode).toBe(503);
      expect(response.json().error.type).toBe('service_unavailable');
      await broken.close();
    });
  });
});
