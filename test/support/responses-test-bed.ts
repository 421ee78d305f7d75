import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { openAIClientWithNewKey } from './sdk-clients.js';
import { startTempServers, type TempServers } from './temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from './upstreams/index.js';

/** One OpenAI mock behind two deployments of the gateway, and a client with a `responses` key. */
export interface ResponsesTestBed {
  readonly upstream: OpenAIUpstream;
  readonly servers: TempServers;
  readonly client: OpenAI;
}

/**
 * For a describe block: `native-model` (the mock's own Responses API) and `bridged-model` (its chat
 * completions, translated), no retries; the mock's record is cleared before each test. The fields
 * are set once the block's beforeAll has run.
 */
export function responsesTestBed(apiKey: string): ResponsesTestBed {
  const bed = {} as { upstream: OpenAIUpstream; servers: TempServers; client: OpenAI };
  beforeAll(async () => {
    bed.upstream = await startOpenAIUpstream({ apiKey });
    const deployment = { provider: 'openai', upstream_model: 'gpt-4.1', base_url: bed.upstream.url, api_key: apiKey };
    bed.servers = await startTempServers({
      llm: { allowed_models: ['native-model', 'bridged-model'] },
      gateway: { max_retries: 0 },
      deployments: [
        { id: 'native', model: 'native-model', responses_api: 'native', ...deployment },
        { id: 'bridged', model: 'bridged-model', ...deployment },
      ],
    });
    bed.client = await openAIClientWithNewKey(bed.servers, { scopes: ['responses'] });
  });
  beforeEach(() => bed.upstream.reset());
  afterAll(async () => {
    await bed.servers?.stop();
    await bed.upstream?.close();
  });
  return bed;
}
