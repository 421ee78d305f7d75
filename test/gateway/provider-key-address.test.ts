import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openAIClientWithNewKey } from '../support/sdk-clients.js';
import { startTempServers, type TempServers } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

// The organisation's provider key, from the gateway's environment (OPENAI_API_KEY), goes to the
// provider's own address only: a deployment with an address of its own and no key of its own (a
// colleague's vLLM, a local proxy) must never be sent it.

const ORG_KEY = 'sk-org-secret-0123456789abcdef';

describe("the provider key from the gateway's environment", () => {
  let upstream: OpenAIUpstream;
  const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
  let servers: TempServers | undefined;

  beforeAll(async () => {
    upstream = await startOpenAIUpstream();
  });
  afterEach(async () => {
    await servers?.stop();
    servers = undefined;
    for (const [name, value] of [
      ['OPENAI_API_KEY', saved.key],
      ['OPENAI_BASE_URL', saved.url],
    ] as const)
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  });
  afterAll(() => upstream.close());

  const chat = async (model: string) => {
    const client = await openAIClientWithNewKey(servers!, { name: 'caller' });
    upstream.reset();
    await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
    return upstream.lastRequest()!.headers.authorization;
  };

  it('is not sent to a deployment whose base_url is another address', async () => {
    process.env.OPENAI_API_KEY = ORG_KEY;
    servers = await startTempServers({
      llm: { allowed_models: ['elsewhere'] },
      deployments: [{ id: 'd', model: 'elsewhere', provider: 'openai', upstream_model: 'x', base_url: upstream.url }],
    });
    expect(await chat('elsewhere')).toBeUndefined();
  });

  it("is sent to the provider's own address (OPENAI_BASE_URL)", async () => {
    process.env.OPENAI_API_KEY = ORG_KEY;
    process.env.OPENAI_BASE_URL = upstream.url;
    servers = await startTempServers({
      llm: { allowed_models: ['own'] },
      deployments: [{ id: 'd', model: 'own', provider: 'openai', upstream_model: 'x' }],
    });
    expect(await chat('own')).toBe(`Bearer ${ORG_KEY}`);
  });
});
