import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

/**
 * A team is named by its id, and a deleted team's id may be taken again, by hand or by an SSO mapping
 * that creates its team on the next sign-in. The new team is someone else: it never sees the old
 * team's kept responses or cached answers, and its budgets start from its own first request.
 */
describe('a team deleted and created again under the same id', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness({ cache: { enabled: true } });
  });
  afterAll(async () => h.close());

  const QUESTION = 'What is our acquisition target?';
  const ask = (client: OpenAI) =>
    client.chat.completions
      .create({ model: 'gpt-4o-mini', temperature: 0, messages: [{ role: 'user', content: QUESTION }] })
      .withResponse();

  it("inherits none of the old team's responses, cached answers or budget usage", async () => {
    expect((await h.admin('POST', '/internal/teams', { id: 'contractors', tpd_budget: 100_000 })).status).toBe(201);
    const old = await h.issueKey({ user: 'old@vendor.example', team: 'contractors', scopes: ['chat', 'responses'] });
    const oldClient = h.openaiClient(old.key);
    h.openai.setDefault({ reply: { text: 'the old tenant plan' } });
    const kept = await oldClient.responses.create({ model: 'gpt-4o-mini', input: 'old tenant notes', store: true });
    expect((await ask(oldClient)).response.headers.get('x-cache-hit')).toBe('false');
    expect((await h.admin('GET', '/internal/teams/contractors')).body.today.requests).toBe(2);

    // Offboarding, as docs/limits.md asks: the key revoked, the user and then the team deleted.
    expect((await h.admin('DELETE', `/internal/api-keys/${old.id}`)).status).toBe(200);
    expect((await h.admin('DELETE', '/internal/users/old@vendor.example')).status).toBe(200);
    const deleted = await h.admin('DELETE', '/internal/teams/contractors');
    expect(deleted.status).toBe(200);
    const audit = await h.admin('GET', '/internal/audit?action=team.delete');
    expect(audit.body.data[0].details).toMatchObject({ responses_deleted: 1, cache_entries_purged: 1 });

    // Another vendor's team, under the same id.
    expect((await h.admin('POST', '/internal/teams', { id: 'contractors', tpd_budget: 100_000 })).status).toBe(201);
    const created = await h.admin('GET', '/internal/teams/contractors');
    expect(created.body.today).toEqual({ requests: 0, tokens: 0, cost_usd: 0 });
    expect(created.body.limits[0]).toMatchObject({ limit_type: 'team_daily', used: 0 });
    const fresh = await h.issueKey({ user: 'new@other.example', team: 'contractors', scopes: ['chat', 'responses'] });
    const freshClient = h.openaiClient(fresh.key);
    const status = (promise: Promise<unknown>) =>
      promise.then(
        () => 200,
        (error: InstanceType<typeof OpenAI.APIError>) => error.status,
      );
    expect(await status(freshClient.responses.retrieve(kept.id))).toBe(404);
    expect(await status(freshClient.responses.inputItems.list(kept.id))).toBe(404);
    expect(
      await status(
        freshClient.responses.create({ model: 'gpt-4o-mini', input: 'go on', previous_response_id: kept.id }),
      ),
    ).toBe(400);
    h.openai.setDefault({ reply: { text: 'the new tenant answer' } });
    const answer = await ask(freshClient);
    expect(answer.response.headers.get('x-cache-hit')).toBe('false');
    expect(answer.data.choices[0]!.message.content).toBe('the new tenant answer');
    // Its day counts its own requests alone, those the limits admitted: the question (the refused
    // continuation never reached them).
    const after = await h.admin('GET', '/internal/teams/contractors');
    expect(after.body.today.requests).toBe(1);
    expect(after.body.limits[0].used).toBe(after.body.today.tokens);
  });
  it('takes nothing into it from a request that was still running when the team was deleted', async () => {
    await h.admin('POST', '/internal/teams', { id: 'vendor', tpd_budget: 100_000 });
    const old = await h.issueKey({ team: 'vendor', scopes: ['chat', 'responses'] });
    const oldClient = h.openaiClient(old.key);
    h.openai.reset();
    h.openai.setNext(
      { delayMs: 700, reply: { text: 'the old tenant late answer' } },
      { delayMs: 700, reply: { text: 'the old tenant late response' } },
    );
    const late = ask(oldClient);
    const lateKept = oldClient.responses.create({ model: 'gpt-4o-mini', input: 'late notes', store: true });
    while (h.openai.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    // Revoked and deleted while both answers are on their way; the id taken again at once.
    expect((await h.admin('DELETE', `/internal/api-keys/${old.id}`)).status).toBe(200);
    expect((await h.admin('DELETE', '/internal/teams/vendor')).status).toBe(200);
    expect((await h.admin('POST', '/internal/teams', { id: 'vendor', tpd_budget: 100_000 })).status).toBe(201);
    expect((await late).data.choices[0]!.message.content).toBe('the old tenant late answer');
    const kept = await lateKept;

    const created = await h.admin('GET', '/internal/teams/vendor');
    expect(created.body.today).toEqual({ requests: 0, tokens: 0, cost_usd: 0 });
    expect(created.body.limits[0]).toMatchObject({ limit_type: 'team_daily', used: 0 });
    const fresh = h.openaiClient((await h.issueKey({ team: 'vendor', scopes: ['chat', 'responses'] })).key);
    const status = await fresh.responses.retrieve(kept.id).then(
      () => 200,
      (error: InstanceType<typeof OpenAI.APIError>) => error.status,
    );
    expect(status).toBe(404);
    h.openai.setDefault({ reply: { text: 'the new tenant answer' } });
    expect((await ask(fresh)).response.headers.get('x-cache-hit')).toBe('false');
  });

  it("leaves the responses of a key that moved to another team with that key, out of the team's sight", async () => {
    await h.admin('POST', '/internal/teams', { id: 'alpha' });
    await h.admin('POST', '/internal/teams', { id: 'beta' });
    const mover = await h.issueKey({ team: 'alpha', scopes: ['chat', 'responses'] });
    const client = h.openaiClient(mover.key);
    const kept = await client.responses.create({ model: 'gpt-4o-mini', input: 'my notes', store: true });
    expect((await h.admin('PATCH', `/internal/api-keys/${mover.id}`, { team: 'beta' })).status).toBe(200);
    expect((await h.admin('DELETE', '/internal/teams/alpha')).status).toBe(200);
    const audit = await h.admin('GET', '/internal/audit?action=team.delete');
    expect(audit.body.data[0]).toMatchObject({ target: 'alpha', details: { responses_deleted: 0 } });
    expect((await client.responses.retrieve(kept.id)).id).toBe(kept.id);
  });
});
