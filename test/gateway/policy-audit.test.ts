import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';

interface AuditEvent {
  readonly action: string;
  readonly actor: string;
  readonly target: string | null;
  readonly details: Record<string, unknown> | null;
}

/**
 * The audit trail over the admin API, as a platform engineer reads it: who changed which RAG
 * collection's readers, which limits a key was given or changed to, and which user and team records a
 * key's issuance created. Each of these changed what callers may do without leaving a trace.
 */
describe('audit trail of policy changes', () => {
  let servers: TempServers;
  let url: string;
  const admin = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${TEST_MASTER_KEY}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: response.status === 204 ? undefined : await response.json() };
  };
  /** Events newer than `since` (the trail is newest first), oldest first. */
  const eventsAfter = async (since: number): Promise<AuditEvent[]> => {
    const all = (await admin('GET', '/internal/audit?limit=1000')).body.data as AuditEvent[];
    return all.slice(0, all.length - since).reverse();
  };
  const count = async (): Promise<number> => (await admin('GET', '/internal/audit?limit=1000')).body.data.length;

  beforeAll(async () => {
    servers = await startTempServers();
    url = servers.gatewayUrl;
  });
  afterAll(async () => {
    await servers?.stop();
  });

  it('records every change to a RAG collection and its documents, access lists before and after', async () => {
    const before = await count();
    expect(
      (await admin('POST', '/internal/rag/collections', { name: 'handbook', access: { teams: ['people'] } })).status,
    ).toBe(201);
    const document = await admin('POST', '/internal/rag/collections/handbook/documents', {
      key: 'vacation.md',
      content: '# Vacation\n\nUp to five unused days carry over; ask hr@corp.example.com.',
    });
    expect(document.status).toBe(201);
    expect(
      (await admin('PATCH', '/internal/rag/collections/handbook', { access: { teams: ['people', 'sales'] } })).status,
    ).toBe(200);
    expect((await admin('DELETE', `/internal/rag/collections/handbook/documents/${document.body.id}`)).status).toBe(
      204,
    );
    expect((await admin('DELETE', '/internal/rag/collections/handbook')).status).toBe(204);

    const events = await eventsAfter(before);
    expect(events.map((event) => [event.action, event.actor, event.target])).toEqual([
      ['rag.collection.create', 'master', 'handbook'],
      ['rag.document.put', 'master', 'handbook'],
      ['rag.collection.update', 'master', 'handbook'],
      ['rag.document.delete', 'master', 'handbook'],
      ['rag.collection.delete', 'master', 'handbook'],
    ]);
    expect(events[0]!.details).toMatchObject({ access: { keys: [], users: [], teams: ['people'] }, source: null });
    expect(events[1]!.details).toMatchObject({ document_id: document.body.id, key: 'vacation.md', chunks: 1 });
    expect(events[2]!.details).toMatchObject({
      before: { access: { teams: ['people'] } },
      after: { access: { teams: ['people', 'sales'] } },
    });
    expect(events[3]!.details).toEqual({ document_id: document.body.id, key: 'vacation.md' });
    // A document's text may hold personal data: the trail names it, never quotes it.
    expect(JSON.stringify(events)).not.toContain('hr@corp.example.com');
  });

  it('records the limits a key is issued with and the values an update sets', async () => {
    const before = await count();
    const key = (await admin('POST', '/internal/api-keys', { name: 'notebook', rpm_limit: 2, user_tpd_budget: 100000 }))
      .body;
    expect((await admin('PATCH', `/internal/api-keys/${key.id}`, { rpm_limit: 500, tpm_limit: null })).status).toBe(
      200,
    );

    const [created, updated] = await eventsAfter(before);
    expect(created).toMatchObject({
      action: 'api_key.create',
      target: key.id,
      details: { name: 'notebook', rpm_limit: 2, tpm_limit: null, user_tpd_budget: 100000, allow_stateful: true },
    });
    expect(updated).toMatchObject({
      action: 'api_key.update',
      target: key.id,
      details: { fields: ['rpm_limit', 'tpm_limit'], rpm_limit: 500, tpm_limit: null },
    });
    expect(JSON.stringify([created, updated])).not.toContain(key.key);
  });

  it('records the user and team records that issuing a key creates', async () => {
    const before = await count();
    const key = (await admin('POST', '/internal/api-keys', { name: 'new hire', user: 'ada@example.com', team: 'ml' }))
      .body;
    expect((await admin('GET', '/internal/users/ada@example.com')).status).toBe(200);

    const events = await eventsAfter(before);
    expect(events.map((event) => [event.action, event.target])).toEqual([
      ['team.create', 'ml'],
      ['user.create', 'ada@example.com'],
      ['api_key.create', key.id],
    ]);
    // An existing record is not created again.
    const again = await count();
    await admin('POST', '/internal/api-keys', { name: 'second', user: 'ada@example.com' });
    expect((await eventsAfter(again)).map((event) => event.action)).toEqual(['api_key.create']);
  });
});
