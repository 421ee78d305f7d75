import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openAIClientWithNewKey } from '../support/sdk-clients.js';
import { startTempServers, type TempServers } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';
import { nativeDeployment, upstreamCall } from './support/native-projects.js';

/** Two OpenAI projects sharing the load of one model: one address, a key each, equal weights. */
const PROJECT_ONE_KEY = 'sk-proj-route-one-0123456789abcdef';
const PROJECT_TWO_KEY = 'sk-proj-route-two-0123456789abcdef';

/**
 * A provider keeps a response's items per project: a continuation routed to the other project is sent
 * them without their ids, and loses the provider's cached reasoning. It goes first to the project that
 * issued them, as LiteLLM routes a follow-up back to the deployment that answered.
 */
describe('a previous_response_id continuation with two projects serving one model', () => {
  let upstream: OpenAIUpstream;
  let servers: TempServers;
  let client: OpenAI;
  const deployment = (id: string, apiKey: string) => nativeDeployment(upstream, id, 'shared-model', apiKey);
  const authorizationOf = (index: number) => upstreamCall(upstream, index).authorization;
  const inputOf = (index: number) => upstreamCall(upstream, index).input;

  beforeAll(async () => {
    upstream = await startOpenAIUpstream();
    servers = await startTempServers({
      llm: { allowed_models: ['shared-model'] },
      gateway: { max_retries: 0 },
      deployments: [deployment('project-one', PROJECT_ONE_KEY), deployment('project-two', PROJECT_TWO_KEY)],
    });
    client = await openAIClientWithNewKey(servers, { scopes: ['responses'] });
  });
  beforeEach(() => upstream.reset());
  afterAll(async () => {
    await servers.stop();
    await upstream.close();
  });

  it('goes to the project that issued the previous response, with its item ids, every time', async () => {
    const { data: first, response } = await client.responses
      .create({ model: 'shared-model', input: 'Who wrote it?', store: true })
      .withResponse();
    const issuedBy = response.headers.get('x-gateway-deployment');
    const issuerKey = authorizationOf(0);
    for (let turn = 1; turn <= 12; turn += 1) {
      const next = await client.responses
        .create({ model: 'shared-model', input: `Turn ${turn}`, previous_response_id: first.id })
        .withResponse();
      expect(next.response.headers.get('x-gateway-deployment')).toBe(issuedBy);
      expect(authorizationOf(turn)).toBe(issuerKey);
      expect(inputOf(turn)[1]).toMatchObject({ type: 'message', id: 'msg_mock123' });
    }
  });

  it('falls back to the other project, without the ids, when the issuer fails', async () => {
    const { data: first, response } = await client.responses
      .create({ model: 'shared-model', input: 'Who wrote it?', store: true })
      .withResponse();
    const issuedBy = response.headers.get('x-gateway-deployment');
    upstream.setNext({ status: 500 });
    const next = await client.responses
      .create({ model: 'shared-model', input: 'When?', previous_response_id: first.id })
      .withResponse();
    expect(authorizationOf(1)).toBe(authorizationOf(0));
    expect(next.response.headers.get('x-gateway-deployment')).not.toBe(issuedBy);
    expect(authorizationOf(2)).not.toBe(authorizationOf(0));
    expect(inputOf(2).filter((item) => 'id' in item)).toEqual([]);
    expect(next.response.headers.get('x-gateway-attempts')).toBe('2');
  });
});
