import type OpenAI from 'openai';
import { zodTextFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';
import { startFrameServer, type FrameServer } from '../support/upstreams/index.js';

const REFUSAL = "I'm sorry, I can't help with that.";
const Person = z.object({ name: z.string() });

const chunk = (delta: object, finishReason: string | null = null): string =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-refusal',
    object: 'chat.completion.chunk',
    created: 1700000000,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  })}\n\n`;

/**
 * A model served over chat completions that declines answers with chat's `refusal`; a Responses
 * client gets it as OpenAI sends it, a `refusal` content part, which the SDK's parse() leaves unparsed.
 */
describe('a refusal in a Responses answer served over chat completions', () => {
  let h: GatewayHarness;
  let frames: FrameServer;
  let client: OpenAI;

  beforeAll(async () => {
    frames = await startFrameServer();
    h = await startGatewayHarness({
      llm: { allowed_models: ['gpt-4o-mini', 'refuser'] },
      deployments: [
        {
          id: 'refuser',
          model: 'refuser',
          provider: 'openai',
          upstream_model: 'gpt-4o-mini',
          base_url: `${frames.url}/v1`,
          api_key: 'sk-refuser-upstream',
          max_retries: 0,
        },
      ],
    });
    client = h.openaiClient((await h.issueKey({ scopes: ['responses'] })).key);
  });
  afterAll(async () => {
    await h?.close();
    await frames?.close();
  });

  it('is a refusal part, not output text that parse() reads as JSON', async () => {
    h.openai.setNext({
      body: {
        id: 'chatcmpl-refusal',
        object: 'chat.completion',
        created: 1700000000,
        model: 'gpt-4o-mini',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: null, refusal: REFUSAL },
            finish_reason: 'stop',
            logprobs: null,
          },
        ],
        usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 },
      },
    });
    const response = await client.responses.parse({
      model: 'gpt-4o-mini',
      input: 'Tell me a secret',
      text: { format: zodTextFormat(Person, 'person') },
    });
    expect(response.output_parsed).toBeNull();
    expect(response.output).toMatchObject([
      { type: 'message', status: 'completed', content: [{ type: 'refusal', refusal: REFUSAL }] },
    ]);

    // Sent back with its output, as agents continue a conversation, the refusal is the model's turn
    // (the SDK types output items wider than input items, though OpenAI takes a message back).
    const output = response.output as OpenAI.Responses.ResponseInputItem[];
    await client.responses.create({ model: 'gpt-4o-mini', input: [...output, { role: 'user', content: 'Why?' }] });
    expect(h.openai.lastRequest()!.body.messages).toEqual([
      { role: 'assistant', content: REFUSAL },
      { role: 'user', content: 'Why?' },
    ]);
  });

  it('streams as refusal events, and the final Response the SDK assembles holds the refusal part', async () => {
    frames.serveFrames([
      chunk({ role: 'assistant', content: null, refusal: '' }),
      chunk({ refusal: "I'm sorry, " }),
      chunk({ refusal: "I can't help with that." }),
      chunk({}, 'stop'),
      'data: [DONE]\n\n',
    ]);
    const stream = client.responses.stream({
      model: 'refuser',
      input: 'Tell me a secret',
      text: { format: zodTextFormat(Person, 'person') },
    });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const final = await stream.finalResponse();
    expect(types).toEqual(expect.arrayContaining(['response.refusal.delta', 'response.refusal.done']));
    expect(types).not.toContain('response.output_text.delta');
    expect(final.output_parsed).toBeNull();
    expect(final.output).toMatchObject([{ type: 'message', content: [{ type: 'refusal', refusal: REFUSAL }] }]);
  });
});
