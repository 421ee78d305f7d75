import { join } from 'node:path';
import Database from 'better-sqlite3';
import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openAIClientWithNewKey } from '../support/sdk-clients.js';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';
import { nativeDeployment, upstreamCall } from './support/native-projects.js';

/** Two OpenAI projects: one address, a key each (LiteLLM's documented way to spread load over them). */
const PROJECT_ONE_KEY = 'sk-proj-one-0123456789abcdef';
const PROJECT_TWO_KEY = 'sk-proj-two-0123456789abcdef';
const ROTATED_KEY = 'sk-proj-two-rotated-0123456789';

/**
 * A provider keeps a response's items per project, which its key stands for: item ids issued under
 * one key are unknown under another at the same address (OpenAI: 404 "Item with id ... not found").
 * They go back only to the address and key that issued them, and a kept response is deleted at the
 * provider with that key.
 */
describe('item ids of two projects behind one address', () => {
  let upstream: OpenAIUpstream;
  let servers: TempServers;
  let client: OpenAI;
  const admin = gatewayAdmin(() => servers);
  const deployment = (id: string, model: string, apiKey: string) => nativeDeployment(upstream, id, model, apiKey);
  const authorizationOf = (index: number) => upstreamCall(upstream, index).authorization;
  const inputOf = (index: number) => upstreamCall(upstream, index).input;

  beforeAll(async () => {
    upstream = await startOpenAIUpstream();
    servers = await startTempServers({
      llm: { allowed_models: ['one-model', 'two-model'] },
      gateway: { max_retries: 0 },
      deployments: [
        deployment('project-one', 'one-model', PROJECT_ONE_KEY),
        deployment('project-two', 'two-model', PROJECT_TWO_KEY),
      ],
    });
    client = await openAIClientWithNewKey(servers, { scopes: ['responses'] });
  });
  beforeEach(() => upstream.reset());
  afterAll(async () => {
    await servers.stop();
    await upstream.close();
  });

  it("sends one project's ids to the other project without them, and back to its own with them", async () => {
    const one = await client.responses.create({ model: 'one-model', input: 'Who wrote it?', store: true });
    await client.responses.create({ model: 'two-model', input: 'When?', previous_response_id: one.id });
    expect(authorizationOf(1)).toBe(`Bearer ${PROJECT_TWO_KEY}`);
    expect(inputOf(1)[1]).toEqual({ type: 'message', role: 'assistant', content: 'You said: Who wrote it?' });
    expect(inputOf(1).filter((item) => 'id' in item)).toEqual([]);

    await client.responses.create({ model: 'one-model', input: 'When?', previous_response_id: one.id });
    expect(authorizationOf(2)).toBe(`Bearer ${PROJECT_ONE_KEY}`);
    expect(inputOf(2)[1]).toMatchObject({ type: 'message', id: 'msg_mock123' });
  });

  it('replays a response kept before the key was recorded (its issuer the address alone) with its ids, as before', async () => {
    const one = await client.responses.create({ model: 'two-model', input: 'Old turn', store: true });
    const db = new Database(join(servers.dataDir, 'gatehouse.db'));
    try {
      db.prepare('UPDATE gateway_responses SET item_ids_issuer = ? WHERE id = ?').run(upstream.url, one.id);
    } finally {
      db.close();
    }
    await client.responses.create({ model: 'one-model', input: 'Next', previous_response_id: one.id });
    expect(inputOf(1)[1]).toMatchObject({ type: 'message', id: 'msg_mock123' });
    // And it is deleted at the provider through a deployment of that address, as before.
    await client.responses.delete(one.id);
    // (By the provider's own id: the mock answers every request with the same one.)
    expect(upstream.lastRequest()).toMatchObject({ method: 'DELETE', path: '/v1/responses/resp_mock123' });
  });

  it('deletes a kept response at the provider with the key of the project that made it', async () => {
    const made = await client.responses.create({ model: 'two-model', input: 'secret', store: true });
    upstream.reset();
    expect(await client.responses.delete(made.id)).toEqual({ id: made.id, object: 'response', deleted: true });
    expect(upstream.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'DELETE /v1/responses/resp_mock123',
    ]);
    expect(authorizationOf(0)).toBe(`Bearer ${PROJECT_TWO_KEY}`);
  });

  it('says in the answer that the copy stays when no deployment has that key any more', async () => {
    const made = await client.responses.create({ model: 'two-model', input: 'kept', store: true });
    const updated = await admin('PUT', '/internal/deployments', {
      deployments: [
        deployment('project-one', 'one-model', PROJECT_ONE_KEY),
        deployment('project-two', 'two-model', ROTATED_KEY),
      ],
    });
    expect(updated.status).toBe(200);
    upstream.reset();
    const response = await fetch(`${servers.gatewayUrl}/v1/responses/${made.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${client.apiKey}` },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ id: made.id, object: 'response', deleted: true });
    expect(body.warning).toMatch(
      /^deleted here, but the provider's own copy .*was not deleted: no deployment calls that Responses API with the API key that made it/,
    );
    expect(JSON.stringify(body)).not.toContain('sk-proj');
    // Another project's key would delete nothing there, or another project's response of that id.
    expect(upstream.requests).toEqual([]);
    await admin('PUT', '/internal/deployments', { reset: true });
  });
});
