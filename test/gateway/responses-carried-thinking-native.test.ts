import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAIClientWithNewKey } from '../support/sdk-clients.js';
import { startTempServers, type TempServers } from '../support/temp-servers.js';
import {
  startAnthropicUpstream,
  startOpenAIUpstream,
  type AnthropicUpstream,
  type OpenAIUpstream,
} from '../support/upstreams/index.js';

const KEY = 'sk-carried-thinking-0123456789';

/**
 * A Claude model's signed thinking, kept in a reasoning item's encrypted_content, is the gateway's
 * own: a conversation continued on a model with a native Responses API (which refuses encrypted
 * content it did not write) goes there without it, while the same conversation on Claude keeps it.
 */
describe('carried thinking continued on a native Responses upstream', () => {
  let anthropic: AnthropicUpstream;
  let native: OpenAIUpstream;
  let servers: TempServers;
  let client: OpenAI;

  beforeAll(async () => {
    [anthropic, native] = await Promise.all([startAnthropicUpstream(), startOpenAIUpstream({ apiKey: KEY })]);
    servers = await startTempServers({
      llm: { allowed_models: ['claude-opus-4-7', 'native-model'] },
      providers: { anthropic: { base_url: anthropic.url, api_key: KEY } },
      gateway: { max_retries: 0 },
      deployments: [
        {
          id: 'native',
          model: 'native-model',
          provider: 'openai',
          base_url: native.url,
          api_key: KEY,
          responses_api: 'native',
        },
      ],
    });
    client = await openAIClientWithNewKey(servers, { scopes: ['responses'] });
  });
  afterAll(async () => {
    await servers.stop();
    await Promise.all([anthropic.close(), native.close()]);
  });

  it('sends the kept conversation to the native model without the carried thinking', async () => {
    anthropic.setNext({
      body: {
        id: 'msg_01',
        type: 'message',
        role: 'assistant',
        model: 'claude-opus-4-7',
        content: [
          { type: 'thinking', thinking: 'Read it first.', signature: 'sig-native-test' },
          { type: 'tool_use', id: 'toolu_01', name: 'read_file', input: { path: 'a.txt' } },
        ],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 20 },
      },
    });
    const tools = [
      { type: 'function' as const, name: 'read_file', parameters: { type: 'object', properties: {} }, strict: false },
    ];
    const first = await client.responses.create({
      model: 'claude-opus-4-7',
      input: 'Read a.txt',
      reasoning: { effort: 'low' },
      store: true,
      tools,
    });
    expect(first.output.find((item) => item.type === 'reasoning')?.encrypted_content).toEqual(expect.any(String));
    const call = first.output.find((item) => item.type === 'function_call')!;
    await client.responses.create({
      model: 'native-model',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'hello' }],
      tools,
    });
    const input = native.lastRequest()!.body.input as Array<Record<string, unknown>>;
    expect(input.map((item) => item.type ?? 'message')).toEqual(['message', 'function_call', 'function_call_output']);
    expect(JSON.stringify(input)).not.toContain('sig-native-test');
  });
});
