import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

/**
 * The cache after PII scrubbing: the key holds placeholders, the kept answer is the provider's (with
 * placeholders), and each hit is restored with its own request's values, never an earlier caller's.
 */
describe('response cache with PII masking', () => {
  let h: GatewayHarness;
  let first: string;
  let second: string;

  beforeAll(async () => {
    h = await startGatewayHarness({ pii: { mode: 'mask' }, cache: { enabled: true } });
    first = (await h.issueKey({ scopes: ['chat'], team: 'shared' })).key;
    second = (await h.issueKey({ scopes: ['chat'], team: 'shared' })).key;
  });
  afterAll(async () => h.close());

  const body = (content: string) => ({
    model: 'gpt-4o-mini',
    temperature: 0,
    messages: [{ role: 'user' as const, content }],
  });
  const ask = (key: string, content: string) => h.openaiClient(key).chat.completions.create(body(content));
  const askStream = (key: string, content: string) =>
    h.openaiClient(key).chat.completions.create({ ...body(content), stream: true });

  it('answers a request that differs only in a masked value from the cache, with that request’s own value', async () => {
    const a = await ask(first, 'Write to alice@example.com please').withResponse();
    expect(a.data.choices[0]!.message.content).toBe('You said: Write to alice@example.com please');
    const b = await ask(second, 'Write to bob@example.org please').withResponse();
    expect(b.response.headers.get('x-cache-hit')).toBe('true');
    expect(b.data.choices[0]!.message.content).toBe('You said: Write to bob@example.org please');
    expect(JSON.stringify(b.data)).not.toContain('alice');
    expect(h.openai.requests).toHaveLength(1);
    expect(h.openai.lastRequest()!.rawBody).not.toContain('alice@example.com');
  });

  it('restores a replayed stream with the new request’s values too', async () => {
    const collect = async (key: string, content: string): Promise<string> => {
      let text = '';
      for await (const chunk of await askStream(key, content)) text += chunk.choices[0]?.delta.content ?? '';
      return text;
    };
    expect(await collect(first, 'Stream to carol@example.com')).toBe('You said: Stream to carol@example.com');
    const before = h.openai.requests.length;
    expect(await collect(second, 'Stream to dave@example.net')).toBe('You said: Stream to dave@example.net');
    expect(h.openai.requests).toHaveLength(before);
  });
});
