import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import {
  asBaseUrl,
  missingKeyVariable,
  providerSettings,
} from '../../../src/server/gateway/providers/provider-settings.js';
import type { Deployment } from '../../../src/server/gateway/providers/types.js';
import { startTempServers, TEST_MASTER_KEY } from '../../support/temp-servers.js';
import { startAnthropicUpstream } from '../../support/upstreams/index.js';

/** Base URLs as people paste them, from a provider's docs, LiteLLM configs or a server's banner. */
describe('base URL forms', () => {
  it.each([
    ['anthropic', 'https://api.anthropic.com', 'https://api.anthropic.com'],
    ['anthropic', 'https://api.anthropic.com/v1', 'https://api.anthropic.com'],
    ['anthropic', 'https://proxy.example/anthropic/v1/messages/', 'https://proxy.example/anthropic'],
    ['ollama', 'http://127.0.0.1:11434', 'http://127.0.0.1:11434/v1'],
    ['lmstudio', 'http://localhost:1234/', 'http://localhost:1234/v1'],
    ['ollama', 'http://127.0.0.1:11434/v1', 'http://127.0.0.1:11434/v1'],
    ['vllm', 'http://gpu-box:8000/openai', 'http://gpu-box:8000/openai'],
    ['openai', 'https://gateway.example', 'https://gateway.example'],
  ])('%s %s is called as %s', (provider, pasted, used) => {
    expect(asBaseUrl(provider, pasted)).toBe(used);
  });
});

describe('an Anthropic base URL written with /v1/messages, as in a LiteLLM config', () => {
  it('reaches /v1/messages, not /v1/messages/v1/messages', async () => {
    const upstream = await startAnthropicUpstream();
    const servers = await startTempServers({
      llm: { allowed_models: ['claude-opus-4-7'] },
      providers: { anthropic: { base_url: `${upstream.origin}/v1/messages`, api_key: 'sk-ant-base-url-0123456789' } },
    });
    try {
      const created = await fetch(`${servers.gatewayUrl}/internal/api-keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ scopes: ['chat'] }),
      });
      const { key } = (await created.json()) as { key: string };
      const client = new Anthropic({ baseURL: servers.gatewayUrl, apiKey: key, maxRetries: 0 });
      const message = await client.messages.create({
        model: 'claude-opus-4-7',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(message.content[0]).toMatchObject({ type: 'text' });
      expect(upstream.requests.map((request) => request.path)).toEqual(['/v1/messages']);
    } finally {
      await servers.stop();
      await upstream.close();
    }
  });
});

describe('the provider key goes to its address however it was written', () => {
  const deployment = (provider: string, baseUrl: string): Deployment => ({
    id: 'd',
    model: 'm',
    provider,
    upstreamModel: 'm',
    baseUrl,
    timeoutMs: 1000,
    weight: 1,
    maxRetries: 0,
    explicit: true,
  });

  it('sends ANTHROPIC_API_KEY to https://api.anthropic.com/v1, and no key elsewhere', () => {
    const env = { ANTHROPIC_API_KEY: 'sk-ant-env-0123456789' };
    expect(providerSettings(deployment('anthropic', 'https://api.anthropic.com/v1'), env).apiKey).toBe(
      'sk-ant-env-0123456789',
    );
    expect(providerSettings(deployment('anthropic', 'https://api.anthropic.com/'), env).apiKey).toBe(
      'sk-ant-env-0123456789',
    );
    expect(providerSettings(deployment('anthropic', 'https://proxy.example'), env).apiKey).toBeUndefined();
    expect(missingKeyVariable(deployment('anthropic', 'https://api.anthropic.com/v1'), env)).toBeUndefined();
  });
});

describe("the gateway's loop mark", () => {
  const deployment = (provider: string, baseUrl?: string): Deployment => ({
    id: 'd',
    model: 'm',
    provider,
    upstreamModel: 'm',
    ...(baseUrl === undefined ? {} : { baseUrl }),
    timeoutMs: 1000,
    weight: 1,
    maxRetries: 0,
    explicit: true,
  });

  it('goes to addresses that may be the gateway itself, never to a public provider', () => {
    expect(providerSettings(deployment('openai'), {}).marksLoop).toBe(false);
    expect(providerSettings(deployment('anthropic', 'https://api.anthropic.com/v1'), {}).marksLoop).toBe(false);
    expect(providerSettings(deployment('openai', 'http://127.0.0.1:8747/v1'), {}).marksLoop).toBe(true);
    expect(providerSettings(deployment('openai_compatible', 'https://llm.example/v1'), {}).marksLoop).toBe(true);
    expect(providerSettings(deployment('ollama'), {}).marksLoop).toBe(true);
  });
});
