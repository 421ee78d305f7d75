import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';

/**
 * The admin listings used to drop query parameters they did not know: `/internal/audit?target=<key>`
 * answered every event, `/internal/usage?key=<id>` every key's usage, each looking like the filtered
 * answer. They refuse them now, naming what they take, as the store's endpoints do; the audit trail
 * also filters by target and actor.
 */
describe('query parameters of the admin listings', () => {
  let servers: TempServers;
  beforeAll(async () => {
    servers = await startTempServers();
  });
  afterAll(async () => servers?.stop());

  const admin = gatewayAdmin(() => servers);

  it('refuses a parameter a listing does not take, naming it and the ones it takes', async () => {
    const cases: Array<[string, string]> = [
      [
        '/internal/audit?actions=api_key.create',
        "unknown query parameter 'actions'; this endpoint takes limit, before, since, until, action, target, actor",
      ],
      [
        '/internal/usage?key=key_1',
        "unknown query parameter 'key'; this endpoint takes group_by, bucket, since, until, key_id, model, user, team, endpoint",
      ],
      [
        '/internal/usage/logs?users=ada&teams=x',
        "unknown query parameters 'users', 'teams'; this endpoint takes limit, before, since, until, key_id, model, request_id, endpoint, status, error_type, user, team, format, max_rows",
      ],
      [
        '/internal/api-keys?metadata.owner=ops',
        "unknown query parameter 'metadata.owner'; this endpoint takes user, team, issuer, include_revoked, status, name, limit, after",
      ],
      ['/internal/users?teams=research', "unknown query parameter 'teams'; this endpoint takes team, limit, after"],
      ['/internal/teams?name=x', "unknown query parameter 'name'; this endpoint takes limit, after"],
      [
        '/internal/traffic?model=demo/echo',
        "unknown query parameter 'model'; this endpoint takes limit, after, bodies",
      ],
    ];
    for (const [path, message] of cases) {
      const answer = await admin('GET', path);
      expect({ path, status: answer.status, body: answer.body }).toEqual({
        path,
        status: 400,
        body: { error: { type: 'invalid_request_error', message, code: 400 } },
      });
    }
  });

  it('refuses any parameter on an endpoint that takes none, rather than answering the whole list', async () => {
    for (const path of [
      '/internal/deployments/health?model=demo/echo',
      '/internal/rag/collections?name=docs',
      '/internal/cache?team=research',
    ]) {
      const answer = await admin('GET', path);
      const name = new URL(path, 'http://x').searchParams.keys().next().value;
      expect({ path, status: answer.status, message: answer.body.error?.message }).toEqual({
        path,
        status: 400,
        message: `unknown query parameter '${name}'; this endpoint takes none`,
      });
    }
    // Writes too: a parameter they would ignore is refused before anything changes.
    const created = await admin('POST', '/internal/teams?dry_run=true', { id: 'not-made' });
    expect(created.status).toBe(400);
    expect((await admin('GET', '/internal/teams/not-made')).status).toBe(404);
    // A bare `?` or no query at all is still fine.
    expect((await admin('GET', '/internal/teams?')).status).toBe(200);
  });

  it('refuses an empty filter value, naming the parameter, instead of answering an empty list', async () => {
    for (const path of [
      '/internal/users?team=',
      '/internal/audit?action=',
      '/internal/usage/logs?key_id=',
      '/internal/api-keys?team=',
      '/internal/usage?model=',
    ]) {
      const answer = await admin('GET', path);
      const name = path.slice(path.indexOf('?') + 1, -1);
      expect({ path, status: answer.status }).toEqual({ path, status: 400 });
      expect(answer.body.error.message).toContain(name);
      expect(answer.body.error.message).toContain('must not be empty');
    }
  });

  it('aggregates the usage of one user or one team, as the rows are filtered (it refused user and team)', async () => {
    for (const team of ['red', 'blue']) await admin('POST', '/internal/teams', { id: team });
    const keyOf = async (user: string, team: string) =>
      (await admin('POST', '/internal/api-keys', { name: user, user, team, scopes: ['chat'] })).body.key as string;
    const ask = (key: string) =>
      fetch(`${servers.gatewayUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: 'hi' }] }),
      }).then((response) => response.text());
    const [ada, bob] = [await keyOf('ada', 'red'), await keyOf('bob', 'blue')];
    for (const key of [ada, ada, bob]) await ask(key);
    const requests = async (query: string) =>
      (await admin('GET', `/internal/usage?group_by=model&${query}`)).body.totals.requests as number;
    expect(await requests('team=red')).toBe(2);
    expect(await requests('user=bob')).toBe(1);
    expect(await requests('user=bob&team=red')).toBe(0);
  });

  it('filters usage rows by endpoint', async () => {
    const { key } = (await admin('POST', '/internal/api-keys', { name: 'both', scopes: ['chat', 'embeddings'] })).body;
    const call = (path: string, body: unknown) =>
      fetch(`${servers.gatewayUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((response) => response.text());
    await call('/v1/chat/completions', { model: 'demo/echo', messages: [{ role: 'user', content: 'hi' }] });
    await call('/v1/embeddings', { model: 'demo/embed', input: 'hi' });
    const rows = (await admin('GET', '/internal/usage/logs?endpoint=embeddings')).body.data;
    expect(rows.map((row: { endpoint: string }) => row.endpoint)).toEqual(['embeddings']);
    // A name no row can have is refused, naming the ones there are, rather than matching nothing.
    const unknown = await admin('GET', '/internal/usage/logs?endpoint=embedding');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('endpoint');
    expect(unknown.body.error.message).toContain("'embeddings'");
  });

  it('filters the audit trail by target and by actor', async () => {
    const first = (await admin('POST', '/internal/api-keys', { name: 'audited-1' })).body;
    const second = (await admin('POST', '/internal/api-keys', { name: 'audited-2' })).body;
    await admin('PATCH', `/internal/api-keys/${first.id}`, { name: 'audited-1b' });
    const forFirst = (await admin('GET', `/internal/audit?target=${first.id}`)).body.data;
    expect(forFirst.map((event: { action: string }) => event.action)).toEqual(['api_key.update', 'api_key.create']);
    const bySecond = (await admin('GET', `/internal/audit?target=${second.id}&action=api_key.create`)).body.data;
    expect(bySecond).toHaveLength(1);
    const byMaster = (await admin('GET', '/internal/audit?actor=master')).body.data;
    expect(byMaster.length).toBeGreaterThanOrEqual(3);
    expect((await admin('GET', '/internal/audit?actor=passthrough')).body.data).toEqual([]);
  });
});
