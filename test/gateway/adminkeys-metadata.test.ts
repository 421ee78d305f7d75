import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** Metadata of `size` bytes as JSON: one entry whose value fills it. */
const metadataOfBytes = (size: number): Record<string, string> => ({ note: 'x'.repeat(size - '{"note":""}'.length) });
const manyEntries = (count: number): Record<string, number> =>
  Object.fromEntries(Array.from({ length: count }, (_, index) => [`label${index}`, index]));

/**
 * `metadata` of keys, users and teams is labels, bounded at 64 entries and 8 KiB as JSON: every
 * listing and audit event carries it, so an unbounded one slowed every read and stayed in the audit log.
 */
describe('metadata of keys, users and teams', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness();
  });
  afterAll(() => h.close());

  it('refuses metadata past 8 KiB as JSON, naming the field, the bound and the size, without echoing it', async () => {
    const large = metadataOfBytes(1_000_000);
    const issued = await h.admin('POST', '/internal/api-keys', { scopes: ['chat'], metadata: large });
    expect(issued.status).toBe(400);
    expect(issued.body.error.type).toBe('invalid_request_error');
    expect(issued.body.error.message).toContain('metadata');
    expect(issued.body.error.message).toContain('at most 8192 bytes');
    expect(issued.body.error.message).toContain('got 1000000');
    expect(issued.body.error.message.length).toBeLessThan(400);
    // Nothing was issued, and nothing audited.
    expect((await h.admin('GET', '/internal/api-keys')).body.data).toEqual([]);

    const key = await h.issueKey({ scopes: ['chat'], metadata: metadataOfBytes(8192) });
    expect(key.metadata).toEqual(metadataOfBytes(8192));
    const patched = await h.admin('PATCH', `/internal/api-keys/${key.id}`, { metadata: metadataOfBytes(8193) });
    expect(patched.status).toBe(400);
    expect(patched.body.error.message).toMatch(/^metadata must be at most 8192 bytes .*got 8193/);
  });

  it('refuses more than 64 entries', async () => {
    expect((await h.issueKey({ scopes: ['chat'], metadata: manyEntries(64) })).metadata).toEqual(manyEntries(64));
    const refused = await h.admin('POST', '/internal/api-keys', { scopes: ['chat'], metadata: manyEntries(65) });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/^metadata must have at most 64 entries, got 65/);
  });

  it('holds users and teams to the same bound, on creation and on change', async () => {
    const large = metadataOfBytes(30_000);
    const bound = /^metadata must be at most 8192 bytes .*got 30000/;
    const team = await h.admin('POST', '/internal/teams', { id: 'meta-team', metadata: large });
    expect(team.status).toBe(400);
    expect(team.body.error.message).toMatch(bound);
    const user = await h.admin('POST', '/internal/users', { id: 'meta-user', metadata: large });
    expect(user.status).toBe(400);
    expect(user.body.error.message).toMatch(bound);

    expect((await h.admin('POST', '/internal/teams', { id: 'meta-team', metadata: { owner: 'ml' } })).status).toBe(201);
    expect((await h.admin('POST', '/internal/users', { id: 'meta-user' })).status).toBe(201);
    const teamChange = await h.admin('PATCH', '/internal/teams/meta-team', { metadata: manyEntries(65) });
    expect(teamChange.status).toBe(400);
    expect(teamChange.body.error.message).toMatch(/^metadata must have at most 64 entries, got 65/);
    const userChange = await h.admin('PATCH', '/internal/users/meta-user', { metadata: large });
    expect(userChange.status).toBe(400);
    expect(userChange.body.error.message).toMatch(bound);
    expect((await h.admin('GET', '/internal/teams/meta-team')).body.metadata).toEqual({ owner: 'ml' });
  });
});
