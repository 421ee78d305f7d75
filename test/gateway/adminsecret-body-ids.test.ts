import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, type TempServers } from '../support/temp-servers.js';

/** A master key that is a valid user or team id, so only its being the master key refuses it. */
const MASTER = 'admin.master-0123456789abcdef';

/**
 * A user or team id in a body that is a secret (an API key's, or the master key) would become a record
 * whose id is the secret, shown in every list, the audit log and usage: it is refused, naming the
 * field and never the value, and no record is made.
 */
describe('a secret sent as a user or team id in an admin body', () => {
  let servers: TempServers;
  let secret: string;
  const admin = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${servers.gatewayUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${MASTER}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    servers = await startTempServers({}, { PROXY_MASTER_KEY: MASTER });
    const created = await admin('POST', '/internal/api-keys', { scopes: ['chat'] });
    expect(created.status).toBe(201);
    secret = created.body.key;
  });
  afterAll(() => servers.stop());

  const expectRefused = (answer: { status: number; body: any }, field: string, value: string): void => {
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain(field);
    expect(JSON.stringify(answer.body)).not.toContain(value.slice(3));
  };

  it("refuses an API key's secret as a key's, user's or team's user or team", async () => {
    const { body: key } = await admin('POST', '/internal/api-keys', { scopes: ['chat'] });
    await admin('POST', '/internal/users', { id: 'alice' });
    const requests: ReadonlyArray<readonly [string, string, Record<string, unknown>, string]> = [
      ['POST', '/internal/api-keys', { user: secret }, 'user'],
      ['POST', '/internal/api-keys', { team: secret }, 'team'],
      ['PATCH', `/internal/api-keys/${key.id}`, { user: secret }, 'user'],
      ['PATCH', `/internal/api-keys/${key.id}`, { team: secret }, 'team'],
      ['POST', '/internal/users', { id: secret }, 'id'],
      ['POST', '/internal/users', { id: 'bob', team: secret }, 'team'],
      ['PATCH', '/internal/users/alice', { team: secret }, 'team'],
      ['POST', '/internal/teams', { id: secret }, 'id'],
    ];
    for (const [method, path, body, field] of requests) expectRefused(await admin(method, path, body), field, secret);
    await expectNoRecordNamed(secret);
  });

  it("refuses the master key as a key's, user's or team's user or team", async () => {
    const { body: key } = await admin('POST', '/internal/api-keys', { scopes: ['chat'] });
    await admin('POST', '/internal/users', { id: 'carol' });
    const requests: ReadonlyArray<readonly [string, string, Record<string, unknown>, string]> = [
      ['POST', '/internal/api-keys', { user: MASTER }, 'user'],
      ['POST', '/internal/api-keys', { team: MASTER }, 'team'],
      ['PATCH', `/internal/api-keys/${key.id}`, { user: MASTER }, 'user'],
      ['PATCH', `/internal/api-keys/${key.id}`, { team: MASTER }, 'team'],
      ['POST', '/internal/users', { id: MASTER }, 'id'],
      ['POST', '/internal/users', { id: 'dave', team: MASTER }, 'team'],
      ['PATCH', '/internal/users/carol', { team: MASTER }, 'team'],
      ['POST', '/internal/teams', { id: MASTER }, 'id'],
    ];
    for (const [method, path, body, field] of requests) {
      const answer = await admin(method, path, body);
      expectRefused(answer, field, MASTER);
      expect(answer.body.error.message).toBe(
        `${field}: that is the master key; ids are shown in lists, the audit log and usage, so one must be no secret`,
      );
    }
    await expectNoRecordNamed(MASTER);
  });

  const expectNoRecordNamed = async (value: string): Promise<void> => {
    for (const path of ['/internal/users', '/internal/teams', '/internal/api-keys?include_revoked=true']) {
      const listed = await admin('GET', path);
      expect(listed.status).toBe(200);
      expect(JSON.stringify(listed.body), path).not.toContain(value.slice(3));
    }
  };

  it('still takes ids that are no secret', async () => {
    expect((await admin('POST', '/internal/api-keys', { scopes: ['chat'], user: 'erin', team: 'blue' })).status).toBe(
      201,
    );
  });
});
