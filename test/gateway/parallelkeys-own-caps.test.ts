import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

// `max_parallel_requests` stored on a key, user or team: the record's own value wins over the
// configuration's default (keys: 3 here), and null gives the default back.

let h: GatewayHarness;

beforeAll(async () => {
  h = await startGatewayHarness({ limits: { keys: { max_parallel_requests: 3 } } });
});
afterAll(() => h.close());
beforeEach(() => {
  h.openai.reset();
  h.openai.setDefault({});
});

const messages = [{ role: 'user' as const, content: 'hello' }];
const ask = (client: OpenAI) => client.chat.completions.create({ model: 'gpt-4o-mini', messages });
const outcomeOf = (client: OpenAI) => ask(client).catch((error: unknown) => error);

/**
 * Holds `held` requests at the upstream (one per client given, in turn), then sends one more with
 * `last`: its error, or its answer when it was admitted.
 */
async function oneMoreBeside(held: readonly OpenAI[], last: OpenAI): Promise<unknown> {
  h.openai.setNext(...held.map(() => ({ delayMs: 800 })));
  const holding = held.map((client) => ask(client));
  await h.openai.waitForRequests(held.length);
  const outcome = await outcomeOf(last);
  await Promise.all(holding);
  return outcome;
}

const refusedBy = (subject: string, limit: number) =>
  expect.objectContaining({
    error: expect.objectContaining({ limit_type: 'parallel_requests' }),
    message: expect.stringContaining(`${subject} allows ${limit} requests in flight at once`),
  });

describe('max_parallel_requests per key, user and team', () => {
  it("holds a key to its own cap over the default, and changes it through PATCH (null: the default's)", async () => {
    const key = await h.issueKey({ scopes: ['chat'], max_parallel_requests: 1 });
    expect(key.max_parallel_requests).toBe(1);
    const client = h.openaiClient(key.key);
    const second = await oneMoreBeside([client], client);
    expect(second).toBeInstanceOf(OpenAI.RateLimitError);
    expect(second).toEqual(refusedBy(`key:${key.id}`, 1));

    const raised = await h.admin('PATCH', `/internal/api-keys/${key.id}`, { max_parallel_requests: 2 });
    expect(raised.status).toBe(200);
    expect(raised.body.max_parallel_requests).toBe(2);
    h.openai.reset();
    expect(await oneMoreBeside([client], client)).not.toBeInstanceOf(Error);
    h.openai.reset();
    expect(await oneMoreBeside([client, client], client)).toEqual(refusedBy(`key:${key.id}`, 2));

    const cleared = await h.admin('PATCH', `/internal/api-keys/${key.id}`, { max_parallel_requests: null });
    expect(cleared.body.max_parallel_requests).toBeNull();
    const status = await h.admin('GET', `/internal/api-keys/${key.id}`);
    expect(status.body.max_parallel_requests).toBeNull();
    expect(status.body.limits).toContainEqual(
      expect.objectContaining({ limit_type: 'parallel_requests', subject: `key:${key.id}`, limit: 3 }),
    );
  });

  it("holds a user's keys together to the user's own cap, set and cleared through /internal/users", async () => {
    const created = await h.admin('POST', '/internal/users', { id: 'parallel-own-user', max_parallel_requests: 1 });
    expect(created.status).toBe(201);
    expect(created.body.max_parallel_requests).toBe(1);
    const keys = await Promise.all([1, 2].map(() => h.issueKey({ scopes: ['chat'], user: 'parallel-own-user' })));
    const [first, second] = keys.map((key) => h.openaiClient(key.key)) as [OpenAI, OpenAI];
    expect(await oneMoreBeside([first], second)).toEqual(refusedBy('user:parallel-own-user', 1));

    const cleared = await h.admin('PATCH', '/internal/users/parallel-own-user', { max_parallel_requests: null });
    expect(cleared.body.max_parallel_requests).toBeNull();
    h.openai.reset();
    expect(await oneMoreBeside([first], second)).not.toBeInstanceOf(Error);
  });

  it("holds a team's keys together to the team's own cap, set through PATCH /internal/teams", async () => {
    expect((await h.admin('POST', '/internal/teams', { id: 'parallel-own-team' })).status).toBe(201);
    const keys = await Promise.all([1, 2].map(() => h.issueKey({ scopes: ['chat'], team: 'parallel-own-team' })));
    const [first, second] = keys.map((key) => h.openaiClient(key.key)) as [OpenAI, OpenAI];
    expect(await oneMoreBeside([first], second)).not.toBeInstanceOf(Error);

    const capped = await h.admin('PATCH', '/internal/teams/parallel-own-team', { max_parallel_requests: 2 });
    expect(capped.status).toBe(200);
    expect(capped.body.max_parallel_requests).toBe(2);
    expect((await h.admin('GET', '/internal/teams/parallel-own-team')).body.max_parallel_requests).toBe(2);
    h.openai.reset();
    expect(await oneMoreBeside([first, second], second)).toEqual(refusedBy('team:parallel-own-team', 2));
  });

  it.each([0, 10_001, 1.5, '2'])('refuses %j as a cap on a key, a user and a team', async (value) => {
    const key = await h.admin('POST', '/internal/api-keys', { scopes: ['chat'], max_parallel_requests: value });
    const user = await h.admin('POST', '/internal/users', { id: 'parallel-bad-user', max_parallel_requests: value });
    const team = await h.admin('POST', '/internal/teams', { id: 'parallel-bad-team', max_parallel_requests: value });
    for (const answer of [key, user, team]) {
      expect(answer.status).toBe(400);
      expect(JSON.stringify(answer.body)).toContain('max_parallel_requests');
    }
  });

  it('takes 10000 as the largest cap', async () => {
    const key = await h.issueKey({ scopes: ['chat'], max_parallel_requests: 10_000 });
    expect(key.max_parallel_requests).toBe(10_000);
  });
});
