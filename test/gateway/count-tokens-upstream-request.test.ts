import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** What Anthropic's own count endpoint receives when an Anthropic SDK counts a Claude request. */
describe('count_tokens on a Claude model: the request Anthropic gets', () => {
  let h: GatewayHarness;
  let secret: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    secret = (await h.issueKey({ scopes: ['chat'] })).key;
  });
  afterAll(async () => h.close());
  beforeEach(() => h.anthropic.reset());

  it("forwards the client's betas, as the Messages call of the same request does", async () => {
    const client = h.anthropicClient(secret);
    const counted = await client.beta.messages.countTokens({
      model: 'claude-opus-4-7',
      betas: ['context-management-2025-06-27', 'token-efficient-tools-2025-02-19'],
      messages: [{ role: 'user', content: 'count me with betas' }],
    });
    expect(counted.input_tokens).toBeGreaterThan(0);
    const sent = h.anthropic.lastRequest()!;
    expect(sent.path).toMatch(/^\/v1\/messages\/count_tokens/);
    // The SDK adds its own token-counting beta to those asked for.
    expect(sent.headers['anthropic-beta']?.split(',')).toEqual(
      expect.arrayContaining(['context-management-2025-06-27', 'token-efficient-tools-2025-02-19']),
    );
  });

  it('counts a whole Messages body: the fields that only shape the answer are not sent to the count', async () => {
    const client = h.anthropicClient(secret);
    // A caller reusing its Messages parameters; the gateway accepts them on a count (max_tokens included).
    const messageParams = {
      model: 'claude-opus-4-7',
      max_tokens: 64,
      temperature: 0.2,
      top_p: 0.9,
      stop_sequences: ['END'],
      metadata: { user_id: 'user-7' },
      system: 'be brief',
      messages: [{ role: 'user' as const, content: 'count the prompt only' }],
    };
    const counted = await client.messages.countTokens(messageParams);
    expect(counted.input_tokens).toBeGreaterThan(0);
    const sent = h.anthropic.lastRequest()!.body;
    expect(sent).toEqual({ model: 'claude-opus-4-7', system: 'be brief', messages: messageParams.messages });
  });
});
