import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

/**
 * Single sign-on names users by e-mail address in lower case (`Bob@Corp.example` signs in as
 * `bob@corp.example`). An access list entry written with capitals used to be stored, match no SSO
 * user, and close the collection to the reader it named. It is refused, naming the entry and the
 * lower-case form, unless a key is owned by that very id (an admin may issue keys to any id).
 */
describe('RAG access lists and e-mail user ids in another case', () => {
  let h: GatewayHarness;

  const retrievedChunks = async (key: string): Promise<string> => {
    const { response } = await h
      .openaiClient(key)
      .chat.completions.create(
        { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'When is the payroll run?' }] },
        { headers: { 'x-gatehouse-rag': 'payroll' } },
      )
      .withResponse();
    return response.headers.get('x-gatehouse-rag-chunks') ?? '';
  };

  beforeAll(async () => {
    h = await startGatewayHarness();
    expect((await h.admin('POST', '/internal/rag/collections', { name: 'payroll' })).status).toBe(201);
    await h.admin('POST', '/internal/rag/collections/payroll/documents', {
      key: 'payroll.md',
      content: 'The payroll run is on the 25th of every month.',
    });
  });
  afterAll(() => h.close());

  it('refuses an address with capitals that no key is owned by, naming the entry and its lower-case form', async () => {
    const patched = await h.admin('PATCH', '/internal/rag/collections/payroll', {
      access: { users: ['alice@corp.example', 'Bob@Corp.example'] },
    });
    expect(patched.status).toBe(400);
    expect(patched.body.error).toMatchObject({ type: 'invalid_request_error' });
    expect(patched.body.error.message).toMatch(/^access\.users\[1\]: 'Bob@Corp\.example' can match no caller/);
    expect(patched.body.error.message).toContain("list 'bob@corp.example'");
    const created = await h.admin('POST', '/internal/rag/collections', {
      name: 'bonus',
      access: { users: ['Bob@Corp.example'] },
    });
    expect(created.status).toBe(400);
    expect(created.body.error.message).toMatch(/^access\.users\[0\]/);
    expect((await h.admin('GET', '/internal/rag/collections/payroll')).body.access.users).toEqual([]);
  });

  it('lets the lower-case address read the collection, as an SSO key names its owner', async () => {
    const bob = await h.issueKey({ user: 'bob@corp.example', scopes: ['chat', 'rag:payroll'] });
    const patched = await h.admin('PATCH', '/internal/rag/collections/payroll', {
      access: { users: ['bob@corp.example'] },
    });
    expect(patched.status).toBe(200);
    expect(await retrievedChunks(bob.key)).toMatch(/^payroll:\d+$/);
  });

  it('accepts an id with capitals that a key is owned by, and ids that are no addresses', async () => {
    const carol = await h.issueKey({ user: 'Carol@Corp.example', scopes: ['chat', 'rag:payroll'] });
    const patched = await h.admin('PATCH', '/internal/rag/collections/payroll', {
      access: { users: ['Carol@Corp.example', 'DaveSmith'] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.access.users).toEqual(['Carol@Corp.example', 'DaveSmith']);
    expect(await retrievedChunks(carol.key)).toMatch(/^payroll:\d+$/);
    // Matching stays exact: another owner differing only in case is not this reader.
    const other = await h.issueKey({ user: 'carol@corp.example', scopes: ['chat', 'rag:payroll'] });
    await expect(retrievedChunks(other.key)).rejects.toMatchObject({ status: 403 });
  });
});
