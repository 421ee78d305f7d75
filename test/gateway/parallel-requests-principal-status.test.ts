import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

// A user's and a team's status in the admin API show their requests in flight under their cap on
// `max_parallel_requests`, as a key's does: the record's own cap, else the configuration's default.

let h: GatewayHarness;

beforeAll(async () => {
  h = await startGatewayHarness({ limits: { teams: { max_parallel_requests: 5 } } });
});
afterAll(() => h.close());
beforeEach(() => {
  h.openai.reset();
  h.openai.setDefault({});
});

const messages = [{ role: 'user' as const, content: 'hello' }];
const ask = (client: OpenAI) => client.chat.completions.create({ model: 'gpt-4o-mini', messages });

const parallelOf = (record: { limits: { limit_type: string }[] }) =>
  record.limits.filter((status) => status.limit_type === 'parallel_requests');

describe("a user's and a team's parallel requests status", () => {
  it('counts the requests in flight of all their keys against their caps, in the records and the lists', async () => {
    expect((await h.admin('POST', '/internal/teams', { id: 'inflight-team' })).status).toBe(201);
    const user = await h.admin('POST', '/internal/users', {
      id: 'inflight-user',
      team: 'inflight-team',
      max_parallel_requests: 3,
    });
    expect(user.status).toBe(201);
    expect(parallelOf(user.body)).toEqual([
      { limit_type: 'parallel_requests', subject: 'user:inflight-user', limit: 3, used: 0, remaining: 3, reset_ms: 0 },
    ]);
    const keys = await Promise.all(
      [1, 2].map(() => h.issueKey({ scopes: ['chat'], user: 'inflight-user', team: 'inflight-team' })),
    );
    const [first, second] = keys.map((key) => h.openaiClient(key.key)) as [OpenAI, OpenAI];

    h.openai.setNext({ delayMs: 800 }, { delayMs: 800 });
    const held = [ask(first), ask(second)];
    await h.openai.waitForRequests(2);
    const userNow = (await h.admin('GET', '/internal/users/inflight-user')).body;
    expect(parallelOf(userNow)).toEqual([
      expect.objectContaining({ subject: 'user:inflight-user', limit: 3, used: 2, remaining: 1 }),
    ]);
    // The team has no cap of its own: the configuration's default for teams is its cap.
    const teamNow = (await h.admin('GET', '/internal/teams/inflight-team')).body;
    expect(parallelOf(teamNow)).toEqual([
      expect.objectContaining({ subject: 'team:inflight-team', limit: 5, used: 2, remaining: 3 }),
    ]);
    const listed = (await h.admin('GET', '/internal/users')).body.data.find(
      (record: { id: string }) => record.id === 'inflight-user',
    );
    expect(parallelOf(listed)).toEqual([expect.objectContaining({ used: 2 })]);
    const teams = (await h.admin('GET', '/internal/teams')).body.data;
    expect(parallelOf(teams.find((record: { id: string }) => record.id === 'inflight-team'))).toEqual([
      expect.objectContaining({ used: 2 }),
    ]);
    await Promise.all(held);

    const after = (await h.admin('GET', '/internal/users/inflight-user')).body;
    expect(parallelOf(after)).toEqual([expect.objectContaining({ limit: 3, used: 0, remaining: 3 })]);
  });

  it('shows no cap for a user with none of its own and no default, and the new cap once one is set', async () => {
    const user = await h.admin('POST', '/internal/users', { id: 'uncapped-user' });
    expect(parallelOf(user.body)).toEqual([]);
    const capped = await h.admin('PATCH', '/internal/users/uncapped-user', { max_parallel_requests: 7 });
    expect(parallelOf(capped.body)).toEqual([expect.objectContaining({ subject: 'user:uncapped-user', limit: 7 })]);
    const team = await h.admin('POST', '/internal/teams', { id: 'own-cap-team', max_parallel_requests: 2 });
    expect(parallelOf(team.body)).toEqual([expect.objectContaining({ subject: 'team:own-cap-team', limit: 2 })]);
  });
});
