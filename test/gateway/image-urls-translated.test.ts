import OpenAI from 'openai';
import { beforeEach, describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

/**
 * Translated requests carry an image as base64 or as a web address; any other address (a text data
 * URL such as SVG's, a file: path) no provider takes, and its refusal would come back as a 502.
 */
describe('image addresses a translated request cannot carry', () => {
  const context = harnessWithKey();
  beforeEach(() => context.harness.anthropic.reset());

  it('refuses them with 400 naming the part, before any upstream call', async () => {
    const client = context.harness.openaiClient(context.key);
    const ask = (url: string) =>
      client.chat.completions
        .create({
          model: 'claude-opus-4-7',
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'what is it?' },
                { type: 'image_url', image_url: { url } },
              ],
            },
          ],
        })
        .catch((error: unknown) => error);
    const svg = await ask('data:image/svg+xml;utf8,<svg xmlns="http://www.w3.org/2000/svg"/>');
    expect(svg).toBeInstanceOf(OpenAI.BadRequestError);
    expect((svg as Error).message).toContain(
      'messages[0].content[1].image_url.url: a data: URL must be base64 (data:<media type>;base64,<data>) for this model',
    );
    const file = await ask('file:///etc/hostname');
    expect((file as Error).message).toContain(
      'messages[0].content[1].image_url.url: must be an http(s) URL or a base64 data: URL',
    );
    expect(context.harness.anthropic.requests).toHaveLength(0);
    // Base64 and web addresses still go through.
    await client.chat.completions.create({
      model: 'claude-opus-4-7',
      messages: [
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.test/cat.png' } }] },
      ],
    });
    expect(context.harness.anthropic.requests).toHaveLength(1);
  });
});
