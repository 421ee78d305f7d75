import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTextTokens } from '../../src/server/gateway/formats/tokenizer.js';
import { visitMessagesRequestText } from '../../src/server/gateway/formats/messages/messages-text-visitor.js';
import { PendingStore } from '../../src/server/gateway/sso/pending-store.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

// Regressions of an outside review of limits, SSO, PII, the cache and RAG: each fails on the code
// before its fix.

let h: GatewayHarness;

beforeAll(async () => {
  h = await startGatewayHarness({
    pii: { mode: 'mask' },
    cache: { enabled: true },
    rag: { models: { 'gpt-4o-mini': ['eng'] }, top_k: 5 },
  });
});
afterAll(() => h.close());

const post = (key: string, path: string, body: unknown) =>
  fetch(`${h.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('limits', () => {
  it('a model priced by its upstream name reserves that price against a cost budget', async () => {
    // ha-model is served by upstream gpt-4o-mini, priced only under that name.
    await h.admin('POST', '/internal/users', { id: 'priced-user', usd_daily_budget: 0.000001 });
    const key = await h.issueKey({ scopes: ['chat'], user: 'priced-user' });
    const error = (await h
      .openaiClient(key.key)
      .chat.completions.create({ model: 'ha-model', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.RateLimitError>;
    expect(error.status).toBe(429);
    expect(error.error).toMatchObject({ limit_type: 'user_cost_daily' });
  });

  it('a chat request reserves its maximum output once per choice (n)', async () => {
    // A fresh key for each, so each header shows one reservation: the prompt and n x 50 output tokens.
    const remainingAfter = async (n: number) => {
      const key = await h.issueKey({ scopes: ['chat'], tpm_limit: 100_000 });
      const { response } = await h
        .openaiClient(key.key)
        .chat.completions.create({
          model: 'gpt-4o-mini',
          n,
          max_tokens: 50,
          messages: [{ role: 'user', content: 'x' }],
        })
        .withResponse();
      return Number(response.headers.get('x-ratelimit-remaining-tokens'));
    };
    const one = await remainingAfter(1);
    const three = await remainingAfter(3);
    expect(one - three).toBeGreaterThanOrEqual(100);
  });

  it('a user moved to another team takes the keys that were in their old team along, and its limits apply', async () => {
    await h.admin('POST', '/internal/teams', { id: 'free' });
    await h.admin('POST', '/internal/teams', { id: 'capped', rpm_limit: 1 });
    await h.admin('POST', '/internal/teams', { id: 'elsewhere' });
    await h.admin('POST', '/internal/users', { id: 'mover', team: 'free' });
    const inherited = await h.issueKey({ scopes: ['chat'], user: 'mover' });
    const chosen = await h.issueKey({ scopes: ['chat'], user: 'mover', team: 'elsewhere' });
    expect(inherited.team).toBe('free');
    await h.admin('PATCH', '/internal/users/mover', { team: 'capped' });
    expect((await h.admin('GET', `/internal/api-keys/${inherited.id}`)).body.team).toBe('capped');
    expect((await h.admin('GET', `/internal/api-keys/${chosen.id}`)).body.team).toBe('elsewhere');
    const client = h.openaiClient(inherited.key);
    const ask = () =>
      client.chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'hi' }] });
    await ask();
    expect(((await ask().catch((e: unknown) => e)) as { status: number }).status).toBe(429);
    expect((await h.admin('DELETE', '/internal/teams/free')).status).toBe(200);
  });

  it('long runs without spaces are counted piece by piece, never fewer tokens than they have', () => {
    const run = 'abcdefghijklmnopqrstuvwxyz'.repeat(40);
    const pieces = countTextTokens(run);
    expect(pieces).toBeGreaterThan(0);
    // Pieces of 256 characters: at most one more token per piece than the whole run in one go.
    expect(pieces).toBeLessThanOrEqual(countTextTokens(run.slice(0, 255)) * 5 + 5);
    expect(countTextTokens(`hello ${run} world`)).toBeGreaterThanOrEqual(pieces);
  });
});

describe('sign-ins in progress', () => {
  it('a full store pushes out its oldest entry instead of refusing new sign-ins', () => {
    let now = 0;
    const store = new PendingStore<string>(1000, 2, () => now);
    store.put('a', 'A');
    store.put('b', 'B');
    store.put('c', 'C');
    expect(store.take('a')).toBeUndefined();
    expect(store.take('c')).toBe('C');
    now = 2000;
    expect(store.take('b')).toBeUndefined();
  });
});

describe('PII, the cache and RAG', () => {
  it('a cache hit is recorded in the traffic view with the scrubbed body, never the original', async () => {
    const key = (await h.issueKey({ scopes: ['chat'], team: 'shared' })).key;
    const client = h.openaiClient(key);
    const body = (content: string) => ({
      model: 'gpt-4o-mini',
      temperature: 0,
      messages: [{ role: 'user' as const, content }],
    });
    await client.chat.completions.create(body('Write to alice@example.com please'));
    const hit = await client.chat.completions.create(body('Write to bob@example.org please')).withResponse();
    expect(hit.response.headers.get('x-cache-hit')).toBe('true');
    const traffic = JSON.stringify((await h.admin('GET', '/internal/traffic?limit=10')).body.data);
    expect(traffic).not.toContain('alice@example.com');
    expect(traffic).not.toContain('bob@example.org');
  });

  it('document titles, contexts and content sources and search-result titles are scrubbed', () => {
    const body = {
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'document',
              title: 'Mail alice@example.com',
              context: 'From alice@example.com',
              source: { type: 'content', content: [{ type: 'text', text: 'Write alice@example.com' }] },
            },
            { type: 'search_result', title: 'alice@example.com', source: 'https://x', content: [] },
          ],
        },
      ],
    };
    const seen: string[] = [];
    visitMessagesRequestText(body as never, (text) => {
      seen.push(text);
      return text.replaceAll('alice@example.com', '[EMAIL_1]');
    });
    expect(seen.filter((text) => text.includes('alice@example.com'))).toHaveLength(4);
    expect(JSON.stringify(body)).not.toContain('alice@example.com');
  });

  it('a kept response does not carry retrieved context to a teammate who may not read it', async () => {
    const reader = await h.issueKey({ scopes: ['chat', 'responses', 'rag:*'], team: 'engineering' });
    const other = await h.issueKey({ scopes: ['chat', 'responses'], team: 'engineering' });
    await h.admin('POST', '/internal/rag/collections', { name: 'eng', access: { keys: [reader.id] } });
    await h.admin('POST', '/internal/rag/collections/eng/documents', {
      key: 'd.md',
      content: 'Deploy keys rotate every Tuesday. Secret marker ENGMARK7731.',
    });
    const kept = await post(reader.key, '/v1/responses', {
      model: 'gpt-4o-mini',
      store: true,
      input: 'when do deploy keys rotate?',
    });
    expect(kept.headers.get('x-gatehouse-rag-chunks')).toContain('eng:');
    const { id } = (await kept.json()) as { id: string };
    // The answer itself may quote the collection: the teammate is not shown the response at all.
    const read = await fetch(`${h.url}/v1/responses/${id}`, { headers: { authorization: `Bearer ${other.key}` } });
    expect(read.status).toBe(404);
    expect(await read.text()).not.toContain('ENGMARK7731');
  });

  it('a key named like an Object.prototype member is served, not a 500', async () => {
    for (const name of ['constructor', 'toString', '__proto__']) {
      const key = await h.issueKey({ scopes: ['chat'], name });
      const answer = await post(key.key, '/v1/chat/completions', {
        model: 'demo/echo',
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(answer.status, name).toBe(200);
    }
  });
});
