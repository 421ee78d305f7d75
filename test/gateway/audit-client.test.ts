import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  gatewayAdmin,
  startTempServers,
  TEST_MASTER_KEY,
  type AdminAnswer,
  type TempServers,
} from '../support/temp-servers.js';

/**
 * The audit trail says where each admin change came from (address, user agent, the declared author),
 * keeps no credentials in its details, and refuses an action filter that could only answer nothing.
 */
/** A header value whose bytes are the UTF-8 of `text` (fetch sends a header's characters as Latin-1 bytes). */
const utf8AsHeader = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');

describe('audit events: who, no secrets, known actions', () => {
  let servers: TempServers;
  beforeAll(async () => {
    servers = await startTempServers({}, { GATEWAY_PORT: '19150', STORE_PORT: '19151' });
  });
  afterAll(async () => servers?.stop());

  const admin = gatewayAdmin(() => servers);
  const send = async (
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<AdminAnswer> => {
    const response = await fetch(`${servers.gatewayUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };
  const eventsFor = async (target: string) =>
    (await admin('GET', `/internal/audit?target=${encodeURIComponent(target)}`)).body.data as Array<
      Record<string, unknown>
    >;

  it('records the client address, user agent and x-gatehouse-changed-by of each change', async () => {
    const created = await send(
      'POST',
      '/internal/api-keys',
      { 'user-agent': 'ops-script/1.2', 'x-gatehouse-changed-by': 'alice@example.com' },
      { name: 'attributed' },
    );
    expect(created.status).toBe(201);
    expect((await send('POST', '/internal/cache/purge', { 'user-agent': 'gatehouse-ui' }, {})).status).toBe(200);
    const team = await send(
      'POST',
      '/internal/teams',
      { 'x-gatehouse-changed-by': utf8AsHeader('José') },
      { id: 'jose' },
    );
    expect(team.status).toBe(201);
    expect((await eventsFor('jose'))[0]).toMatchObject({ action: 'team.create', changed_by: 'José' });
    const [event] = await eventsFor(created.body.id);
    expect(event).toMatchObject({
      action: 'api_key.create',
      actor: 'master',
      client_address: '127.0.0.1',
      user_agent: 'ops-script/1.2',
      changed_by: 'alice@example.com',
    });
    const cache = (await admin('GET', '/internal/audit?action=cache.purge')).body.data[0];
    expect(cache).toMatchObject({ client_address: '127.0.0.1', user_agent: 'gatehouse-ui', changed_by: null });
  });

  it('refuses an unprintable or overlong x-gatehouse-changed-by, changing nothing', async () => {
    // Header bytes as Latin-1 text: a C1 control in UTF-8, and a byte that is no UTF-8 at all.
    for (const changedBy of ['x'.repeat(201), utf8AsHeader('a\u0085b'), 'caf\u00e9']) {
      const answer = await send(
        'POST',
        '/internal/teams',
        { 'x-gatehouse-changed-by': changedBy },
        { id: 'refused-team' },
      );
      expect(answer.status).toBe(400);
      expect(answer.body.error.message).toContain('x-gatehouse-changed-by');
    }
    expect((await admin('GET', '/internal/teams/refused-team')).status).toBe(404);
  });

  it('redacts credentials in the details, at any depth', async () => {
    const key = (await admin('POST', '/internal/api-keys', { name: 'with-metadata' })).body;
    const patched = await admin('PATCH', `/internal/api-keys/${key.id}`, {
      rpm_limit: 5,
      metadata: { owner_api_key: 'sk-live-META-SECRET-999', nested: { password: 'hunter2' }, team_name: 'kept' },
    });
    expect(patched.status).toBe(200);
    const [update] = await eventsFor(key.id);
    expect(update).toMatchObject({
      action: 'api_key.update',
      details: {
        rpm_limit: 5,
        metadata: { owner_api_key: '[redacted]', nested: { password: '[redacted]' }, team_name: 'kept' },
      },
    });
    const listed = JSON.stringify((await admin('GET', '/internal/audit')).body);
    expect(listed).not.toContain('sk-live-META-SECRET-999');
    expect(listed).not.toContain('hunter2');
  });

  it('refuses an unknown action naming the known ones, and takes a prefix', async () => {
    const unknown = await admin('GET', '/internal/audit?action=nope');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(
      /^query parameter action must be an audit action \(.*\) or a prefix of them such as api_key\.\*, got 'nope'$/,
    );
    expect(unknown.body.error.message).toContain('api_key.create');
    expect((await admin('GET', '/internal/audit?action=nope.*')).status).toBe(400);

    const key = (await admin('POST', '/internal/api-keys', { name: 'prefixed' })).body;
    await admin('POST', `/internal/api-keys/${key.id}/rotate`, {});
    await admin('POST', '/internal/teams', { id: 'prefix-team' });
    const keyActions = await admin('GET', '/internal/audit?action=api_key.*');
    expect(keyActions.status).toBe(200);
    const actions = (keyActions.body.data as Array<{ action: string }>).map((event) => event.action);
    expect(actions).toContain('api_key.rotate');
    expect(actions).toContain('api_key.create');
    expect(actions.every((action) => action.startsWith('api_key.'))).toBe(true);
    const exact = (await admin('GET', '/internal/audit?action=api_key.rotate')).body.data;
    expect(exact.map((event: { action: string }) => event.action)).toEqual(['api_key.rotate']);
  });
});
