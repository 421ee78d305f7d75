import OpenAI from 'openai';
import { beforeEach, describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

/**
 * Responses parameters a model served over chat completions or Messages cannot honour are refused
 * before any upstream call, rather than answered as if they had not been sent.
 */
describe('Responses parameters that need a Responses API of the provider', () => {
  const context = harnessWithKey();
  const client = (): OpenAI => context.harness.openaiClient(context.key);
  beforeEach(() => {
    context.harness.openai.reset();
    context.harness.anthropic.reset();
  });

  const refused: Array<[string, Partial<OpenAI.Responses.ResponseCreateParamsNonStreaming>]> = [
    ['prompt', { prompt: { id: 'pmpt_123', variables: { city: 'Oslo' } } }],
    ['conversation', { conversation: 'conv_123' }],
    ['top_logprobs', { top_logprobs: 3 }],
    ['include', { include: ['message.output_text.logprobs'] }],
  ];

  for (const model of ['gpt-4o-mini', 'claude-opus-4-7']) {
    it.each(refused)(`%s is refused with 400 naming it, before ${model} is called`, async (name, params) => {
      const error = await client()
        .responses.create({ model, input: 'Hello', ...params })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({
        type: 'invalid_request_error',
        message: expect.stringMatching(new RegExp(`^${name}: `)),
      });
      expect(context.harness.openai.requests).toHaveLength(0);
      expect(context.harness.anthropic.requests).toHaveLength(0);
    });
  }

  it('background is refused naming it, before any provider is called', async () => {
    const error = await client()
      .responses.create({ model: 'gpt-4o-mini', input: 'Hello', background: true })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({
      type: 'invalid_request_error',
      message: expect.stringMatching(/^background is not supported: /),
    });
    expect(context.harness.openai.requests).toHaveLength(0);
    const served = await client().responses.create({ model: 'gpt-4o-mini', input: 'Hello', background: false });
    expect(served.output_text).toBe('You said: Hello');
  });

  it('settings the answer does without are still served: what a stateless agent sends', async () => {
    const response = await client().responses.create({
      model: 'gpt-4o-mini',
      input: 'Hello',
      store: false,
      include: ['reasoning.encrypted_content'],
      reasoning: { effort: 'low' },
      text: { verbosity: 'low' },
      top_logprobs: 0,
    });
    expect(response.output_text).toBe('You said: Hello');
  });
});
