import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { countPromptTokens } from '../../../src/server/gateway/limits/prompt-tokens.js';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

// Exactness under concurrency, over real sockets: 200 clients at once, each on its own connection.
// Buckets refill continuously (a limit of N per minute gives one more after 60/N s), so the limits
// here are small enough that even a slow, loaded machine finishes a burst before one more would fit.
// The upstream answers after a delay and reports exactly what was reserved, so settling gives nothing
// back: what is admitted depends on the limits alone, never on which request finished first.
const CLIENTS = 200;

let h: GatewayHarness;
let agent: Agent;

beforeAll(async () => {
  h = await startGatewayHarness();
  agent = new Agent({ connections: CLIENTS, pipelining: 0 });
});
afterAll(async () => {
  await agent.close();
  await h.close();
});
beforeEach(() => {
  h.openai.reset();
  h.openai.setDefault({
    delayMs: 400,
    reply: { text: 'ok', usage: { prompt_tokens: reservation() - 20, completion_tokens: 20 } },
  });
});

const chatBody = { model: 'gpt-4o-mini', max_tokens: 20, messages: [{ role: 'user', content: 'count me' }] };

/** Sends the same chat request from CLIENTS clients at once; the statuses, with the 429 bodies and headers. */
async function burst(secret: string, clients = CLIENTS) {
  const answers = await Promise.all(
    Array.from({ length: clients }, () =>
      request(`${h.url}/v1/chat/completions`, {
        method: 'POST',
        dispatcher: agent,
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify(chatBody),
      }).then(async (response) => ({
        status: response.statusCode,
        headers: response.headers,
        body: (await response.body.json()) as any,
      })),
    ),
  );
  return {
    admitted: answers.filter((a) => a.status === 200),
    refused: answers.filter((a) => a.status === 429),
    other: answers.filter((a) => a.status !== 200 && a.status !== 429),
  };
}

/** What one `chatBody` reserves: its prompt counted by the tokenizer plus its max_tokens. */
const reservation = (): number => countPromptTokens('chat', structuredClone(chatBody), 'gpt-4o-mini').tokens + 20;

describe('limits under 200 concurrent clients', () => {
  it('a key with rpm_limit N admits exactly N', async () => {
    const key = await h.issueKey({ scopes: ['chat'], rpm_limit: 5 });
    const result = await burst(key.key);
    expect(result.other).toEqual([]);
    expect(result.admitted).toHaveLength(5);
    expect(result.refused).toHaveLength(CLIENTS - 5);
    expect(h.openai.requests).toHaveLength(5);
    const refusal = result.refused[0]!;
    expect(refusal.body.error).toMatchObject({ type: 'rate_limit_exceeded', code: 429, limit_type: 'requests' });
    expect(refusal.body.error.message).toContain(`key:${key.id}`);
    // The bucket refills 5 per minute: the 6th request fits after 12 s.
    expect(Number(refusal.headers['retry-after'])).toBeGreaterThanOrEqual(9);
    expect(Number(refusal.headers['retry-after'])).toBeLessThanOrEqual(12);
  });

  it('a key with tpm_limit admits exactly as many reservations as fit', async () => {
    const cost = reservation();
    const key = await h.issueKey({ scopes: ['chat'], tpm_limit: cost * 4 });
    const result = await burst(key.key);
    expect(result.other).toEqual([]);
    expect(result.admitted).toHaveLength(4);
    expect(result.refused[0]!.body.error.limit_type).toBe('tokens');
  });

  it("a user's daily token budget admits exactly as many as fit, across the user's keys", async () => {
    const cost = reservation();
    await h.admin('POST', '/internal/users', { id: 'burst-user', tpd_budget: cost * 11 });
    const [first, second] = [
      await h.issueKey({ scopes: ['chat'], user: 'burst-user' }),
      await h.issueKey({ scopes: ['chat'], user: 'burst-user' }),
    ];
    const [a, b] = await Promise.all([burst(first.key, CLIENTS / 2), burst(second.key, CLIENTS / 2)]);
    expect([...a.other, ...b.other]).toEqual([]);
    expect(a.admitted.length + b.admitted.length).toBe(11);
    const refusal = [...a.refused, ...b.refused][0]!;
    expect(refusal.body.error.limit_type).toBe('user_daily');
    // A day's budget comes back when the UTC day ends.
    const untilMidnight = Math.ceil((86_400_000 - (Date.now() % 86_400_000)) / 1000);
    expect(Math.abs(Number(refusal.headers['retry-after']) - untilMidnight)).toBeLessThanOrEqual(2);
  });

  it("a team's requests bucket is shared by the keys of the team", async () => {
    await h.admin('POST', '/internal/teams', { id: 'burst-team', rpm_limit: 4 });
    const first = await h.issueKey({ scopes: ['chat'], team: 'burst-team' });
    const second = await h.issueKey({ scopes: ['chat'], team: 'burst-team' });
    const [a, b] = await Promise.all([burst(first.key, CLIENTS / 2), burst(second.key, CLIENTS / 2)]);
    expect([...a.other, ...b.other]).toEqual([]);
    expect(a.admitted.length + b.admitted.length).toBe(4);
    expect([...a.refused, ...b.refused][0]!.body.error.message).toContain('team:burst-team');
  });
});
