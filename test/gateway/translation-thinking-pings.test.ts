import { beforeEach, describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

/**
 * Anthropic sends `ping` events while a model is slow to write. A chat or Responses client of a
 * Claude model gets each as an SSE comment, so an idle timeout on its side (or a proxy's) does not
 * cut a healthy stream; the SDKs skip comments. The mock upstream pings once, after its first block starts.
 */
describe('Anthropic pings on translated streams', () => {
  const context = harnessWithKey();
  beforeEach(() => context.harness.anthropic.reset());
  const openai = () => context.harness.openaiClient(context.key);

  it('reach a chat client as a comment after the role chunk, and the SDK still reads the stream', async () => {
    const request = { model: 'claude-opus-4-7', messages: [{ role: 'user' as const, content: 'Hello there' }] };
    const raw = await (
      await openai()
        .chat.completions.create({ ...request, stream: true })
        .asResponse()
    ).text();
    const frames = raw.split('\n\n');
    expect(frames).toContain(': ping');
    expect(frames.indexOf(': ping')).toBeGreaterThan(0);
    expect(frames[0]).toContain('"role":"assistant"');
    let text = '';
    for await (const chunk of await openai().chat.completions.create({ ...request, stream: true }))
      text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('You said: Hello there');
  });

  it('reach a Responses client as a comment, taking no sequence number', async () => {
    const request = { model: 'claude-opus-4-7', input: 'Hello there' };
    const raw = await (
      await openai()
        .responses.create({ ...request, stream: true })
        .asResponse()
    ).text();
    const frames = raw.split('\n\n').filter((frame) => frame !== '');
    expect(frames).toContain(': ping');
    const numbers = frames
      .filter((frame) => frame.startsWith('event:'))
      .map((frame) => JSON.parse(frame.slice(frame.indexOf('data: ') + 6)).sequence_number as number);
    expect(numbers).toEqual(numbers.map((_, index) => index));
    const events = [];
    for await (const event of await openai().responses.create({ ...request, stream: true })) events.push(event.type);
    expect(events.at(-1)).toBe('response.completed');
  });
});
