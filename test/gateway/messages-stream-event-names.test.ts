import { beforeEach, describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

/**
 * Some Anthropic-compatible servers (a provider `anthropic` deployment may point at one) stream
 * `data:` lines without `event:` lines. Anthropic's SDKs drop a frame without an event name, so the
 * gateway's Messages stream names every event itself, from the type in its JSON.
 */
describe('a native Messages stream from an upstream that leaves out event lines', () => {
  const c = harnessWithKey();
  beforeEach(() => c.harness.anthropic.reset());

  it('reaches the Anthropic SDK whole: every frame carries its event name', async () => {
    c.harness.anthropic.setNext({ omitEventLines: true, reply: { text: 'named at last' } });
    const message = await c.harness
      .anthropicClient(c.key)
      .messages.stream({ model: 'claude-opus-4-7', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] })
      .finalMessage();
    expect(message.content).toEqual([{ type: 'text', text: 'named at last' }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage.output_tokens).toBeGreaterThan(0);
  });

  it('names each frame after the type its data carries', async () => {
    c.harness.anthropic.setNext({ omitEventLines: true });
    const response = await fetch(`${c.harness.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': c.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'claude-opus-4-7',
        max_tokens: 64,
        stream: true,
        messages: [{ role: 'user', content: 'two words' }],
      }),
    });
    const frames = (await response.text()).split('\n\n').filter((frame) => frame.trim() !== '');
    expect(frames.length).toBeGreaterThan(5);
    for (const frame of frames) {
      const [eventLine, dataLine] = frame.split('\n');
      const type = (JSON.parse(dataLine.replace(/^data: /, '')) as { type: string }).type;
      expect(eventLine).toBe(`event: ${type}`);
    }
  });
});
