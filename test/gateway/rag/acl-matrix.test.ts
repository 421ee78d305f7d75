import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiKeyCreated } from '../../../src/shared/gateway-api.js';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

/**
 * The ACL matrix: several keys (scopes, users, teams) against several collections (access by team,
 * user, key, or the scope alone). For every pair, a chunk reaches the caller, the upstream and the
 * traffic record exactly when the key may read the collection, on chat completions, Messages and
 * Responses, through the official SDKs.
 */

// One marker per collection: a marker in a body proves that collection's text got there.
const MARKERS = { eng: 'ENGMARK7731', hr: 'HRMARK4410', open: 'OPENMARK2290', legal: 'LEGALMARK8812' } as const;
type Collection = keyof typeof MARKERS;
const COLLECTIONS = Object.keys(MARKERS) as Collection[];
const DOCUMENTS: Record<Collection, string> = {
  eng: `Deploy keys rotate every Tuesday; ask the platform team. Reference ${MARKERS.eng}.`,
  hr: `Salary bands are reviewed every March by the people team. Reference ${MARKERS.hr}.`,
  open: `The office opens at nine and the canteen at noon. Reference ${MARKERS.open}.`,
  legal: `Contracts above ten thousand need two signatures. Reference ${MARKERS.legal}.`,
};
// Words of every document, so each collection's chunk ranks for it.
const QUERY = 'deploy keys salary bands office canteen contracts signatures reference';

type Caller = 'engineer' | 'alice' | 'scopeOnly' | 'lawyer' | 'noScope';
const KEYS: Record<Caller, { scopes: string[]; user?: string; team?: string }> = {
  // rag:* but only the collections whose rules admit the team (or that have none).
  engineer: { scopes: ['chat', 'responses', 'rag:*'], user: 'bob', team: 'engineering' },
  // hr names alice as a reader; eng is closed to her team.
  alice: { scopes: ['chat', 'responses', 'rag:hr', 'rag:open', 'rag:eng'], user: 'alice', team: 'sales' },
  // The scope alone does not open a collection that lists its readers.
  scopeOnly: { scopes: ['chat', 'responses', 'rag:eng', 'rag:legal'], user: 'carol', team: 'sales' },
  // Listed by key id on legal (set once the key exists).
  lawyer: { scopes: ['chat', 'responses', 'rag:legal', 'rag:open'], user: 'dave', team: 'legal-dept' },
  // The team is engineering, but without a rag scope nothing opens.
  noScope: { scopes: ['chat', 'responses'], user: 'erin', team: 'engineering' },
};
const MAY_READ: Record<Caller, readonly Collection[]> = {
  engineer: ['eng', 'open'],
  alice: ['hr', 'open'],
  scopeOnly: [],
  lawyer: ['legal', 'open'],
  noScope: [],
};

describe('RAG access: the ACL matrix', () => {
  let h: GatewayHarness;
  const issued = {} as Record<Caller, ApiKeyCreated>;

  beforeAll(async () => {
    h = await startGatewayHarness({
      // Every request to these models searches every collection; each caller gets only what it may read.
      rag: { models: { 'gpt-4o-mini': COLLECTIONS, 'claude-opus-4-7': COLLECTIONS }, top_k: 10 },
    });
    for (const caller of Object.keys(KEYS) as Caller[]) issued[caller] = await h.issueKey(KEYS[caller]);
    const access: Record<Collection, object> = {
      eng: { teams: ['engineering'] },
      hr: { users: ['alice'] },
      open: {},
      legal: { keys: [issued.lawyer.id] },
    };
    for (const name of COLLECTIONS) {
      expect((await h.admin('POST', '/internal/rag/collections', { name, access: access[name] })).status).toBe(201);
      const doc = await h.admin('POST', `/internal/rag/collections/${name}/documents`, {
        key: `${name}.txt`,
        content: DOCUMENTS[name],
      });
      expect(doc.status).toBe(201);
    }
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.openai.reset();
    h.anthropic.reset();
  });

  const markersIn = (text: string): Collection[] => COLLECTIONS.filter((name) => text.includes(MARKERS[name]));
  const citedCollections = (header: string | null): Collection[] =>
    [
      ...new Set(
        (header ?? '')
          .split(',')
          .filter(Boolean)
          .map((c) => c.split(':')[0] as Collection),
      ),
    ].sort();

  async function trafficOf(requestId: string): Promise<any> {
    const events = (await h.admin('GET', '/internal/traffic?limit=200')).body.data as any[];
    return events.find((event) => event.request_id === requestId);
  }

  for (const caller of Object.keys(KEYS) as Caller[]) {
    it(`${caller}: configured collections give exactly the readable ones, on every endpoint`, async () => {
      const secret = issued[caller].key;
      const allowed = [...MAY_READ[caller]].sort();

      const chat = await h
        .openaiClient(secret)
        .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: QUERY }] })
        .withResponse();
      const chatUpstream = h.openai.lastRequest()!.rawBody;
      expect(markersIn(chatUpstream).sort()).toEqual(allowed);
      expect(citedCollections(chat.response.headers.get('x-gatehouse-rag-chunks'))).toEqual(allowed);
      const requestId = chat.response.headers.get('x-request-id')!;
      const event = await trafficOf(requestId);
      // null when none of the configured collections is readable: RAG did not run for the key.
      expect(citedCollections(((event.rag_chunks ?? []) as string[]).join(','))).toEqual(allowed);
      // The traffic record holds citations, never retrieved text (of any collection).
      expect(markersIn(JSON.stringify(event))).toEqual([]);

      const message = await h
        .anthropicClient(secret)
        .messages.create({ model: 'claude-opus-4-7', max_tokens: 50, messages: [{ role: 'user', content: QUERY }] })
        .withResponse();
      expect(markersIn(h.anthropic.lastRequest()!.rawBody).sort()).toEqual(allowed);
      expect(citedCollections(message.response.headers.get('x-gatehouse-rag-chunks'))).toEqual(allowed);

      const response = await h
        .openaiClient(secret)
        .responses.create({ model: 'gpt-4o-mini', input: QUERY })
        .withResponse();
      expect(markersIn(h.openai.lastRequest()!.rawBody).sort()).toEqual(allowed);
      expect(citedCollections(response.response.headers.get('x-gatehouse-rag-chunks'))).toEqual(allowed);
      // What comes back (a Response echoes its instructions, which carry the context) is the caller's own.
      const answers = JSON.stringify(chat.data) + JSON.stringify(message.data) + JSON.stringify(response.data);
      expect(markersIn(answers).every((name) => allowed.includes(name))).toBe(true);
    });

    for (const name of COLLECTIONS) {
      const may = MAY_READ[caller].includes(name);
      it(`${caller} asking for ${name} by header: ${may ? 'gets its chunk only' : '403, no upstream call'}`, async () => {
        const client = h.openaiClient(issued[caller].key);
        const call = client.chat.completions
          .create(
            { model: 'demo/echo', messages: [{ role: 'user', content: QUERY }] },
            { headers: { 'x-gatehouse-rag': name } },
          )
          .withResponse();
        if (!may) {
          await expect(call).rejects.toMatchObject({ status: 403, error: { type: 'permission_error' } });
          return;
        }
        const { response } = await call;
        expect(citedCollections(response.headers.get('x-gatehouse-rag-chunks'))).toEqual([name]);
      });
    }

    it(`${caller}: the admin search as this key finds only what it may read`, async () => {
      const search = await h.admin('POST', '/internal/rag/search', {
        query: QUERY,
        key_id: issued[caller].id,
        top_k: 20,
      });
      expect(search.status).toBe(200);
      expect([...new Set(search.body.hits.map((hit: any) => hit.collection))].sort()).toEqual(
        [...MAY_READ[caller]].sort(),
      );
      expect(search.body.denied.sort()).toEqual(COLLECTIONS.filter((c) => !MAY_READ[caller].includes(c)).sort());
    });
  }

  it('a denied collection by header costs no upstream call, and an unknown one answers like a denied one', async () => {
    const client = h.openaiClient(issued.alice.key);
    for (const name of ['eng', 'does-not-exist'])
      await expect(
        client.chat.completions.create(
          { model: 'gpt-4o-mini', messages: [{ role: 'user', content: QUERY }] },
          { headers: { 'x-gatehouse-rag': `open,${name}` } },
        ),
      ).rejects.toMatchObject({
        status: 403,
        message: expect.stringContaining(`may not read RAG collection ${name}`),
      });
    expect(h.openai.requests).toHaveLength(0);
  });

  it('metadata selects collections too, and the metadata entry is not forwarded', async () => {
    const client = h.openaiClient(issued.lawyer.key);
    const { response } = await client.chat.completions
      .create({
        model: 'demo/echo',
        messages: [{ role: 'user', content: QUERY }],
        metadata: { gatehouse_rag: 'legal' },
      })
      .withResponse();
    expect(citedCollections(response.headers.get('x-gatehouse-rag-chunks'))).toEqual(['legal']);
    await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: QUERY }],
      metadata: { gatehouse_rag: 'legal', trace: 'x' },
    });
    const body = h.openai.lastRequest()!.body as { metadata?: Record<string, string> };
    expect(body.metadata).toEqual({ trace: 'x' });
  });

  it('a malformed collection name is 400 naming the header', async () => {
    await expect(
      h
        .openaiClient(issued.engineer.key)
        .chat.completions.create(
          { model: 'demo/echo', messages: [{ role: 'user', content: QUERY }] },
          { headers: { 'x-gatehouse-rag': 'eng,../etc' } },
        ),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('header x-gatehouse-rag') });
  });
});
