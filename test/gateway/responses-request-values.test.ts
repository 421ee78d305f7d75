import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { responsesTestBed } from '../support/responses-test-bed.js';

const KEY = 'sk-request-values-0123456789';

/**
 * The settings a Responses request gives by name (`reasoning.effort`, `truncation`, ...) are checked
 * before any upstream call, as OpenAI checks them, and the echoed Response has the shape OpenAI's has.
 */
describe('Responses request values and their echo', () => {
  const bed = responsesTestBed(KEY);

  const refusals: Array<[Record<string, unknown>, string, string]> = [
    [
      { reasoning: { effort: 'extreme' } },
      'reasoning.effort',
      "must be one of 'none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max', got 'extreme'",
    ],
    [{ reasoning: { summary: 'loud' } }, 'reasoning.summary', "must be one of 'auto', 'concise', 'detailed'"],
    [{ text: { verbosity: 'shouty' } }, 'text.verbosity', "must be one of 'low', 'medium', 'high', got 'shouty'"],
    [{ truncation: 'sometimes' }, 'truncation', "must be one of 'auto', 'disabled', got 'sometimes'"],
  ];

  it.each(refusals)('refuses %j with a 400 naming the field and its values', async (extra, param, problem) => {
    for (const model of ['bridged-model', 'native-model']) {
      const failure = await bed.client.responses
        .create({ model, input: 'Go', ...extra } as never)
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
      expect((failure as Error).message).toContain(`${param} ${problem}`);
      expect((failure as { param?: unknown }).param).toBe(param);
    }
    expect(bed.upstream.requests).toHaveLength(0);
  });

  it('takes every value OpenAI takes, and echoes them', async () => {
    const response = await bed.client.responses.create({
      model: 'bridged-model',
      input: 'Go',
      reasoning: { effort: 'xhigh', summary: 'concise' },
      text: { verbosity: 'high' },
      truncation: 'auto',
    });
    expect(response).toMatchObject({
      reasoning: { effort: 'xhigh', summary: 'concise' },
      text: { verbosity: 'high', format: { type: 'text' } },
      truncation: 'auto',
    });
    const plain = await bed.client.responses.create({ model: 'bridged-model', input: 'Go', truncation: null });
    expect(plain.truncation).toBe('disabled');
  });

  it('echoes function tools with strict and parameters, and completed_at once completed', async () => {
    const before = Math.floor(Date.now() / 1000);
    const tools = [
      { type: 'function', name: 'weather', parameters: { type: 'object', properties: {} } },
      { type: 'function', name: 'clock', parameters: null, strict: true },
    ];
    const response = await bed.client.responses.create({ model: 'bridged-model', input: 'Go', tools } as never);
    expect(response.tools).toEqual([
      { ...tools[0], strict: false },
      { ...tools[1], strict: true },
    ]);
    expect(response.status).toBe('completed');
    expect(response.completed_at).toBeGreaterThanOrEqual(before);

    const stream = bed.client.responses.stream({ model: 'bridged-model', input: 'Go', tools } as never);
    const events: Array<{ type: string; response?: OpenAI.Responses.Response }> = [];
    for await (const event of stream) events.push(event);
    const created = events.find((event) => event.type === 'response.created')!.response!;
    expect(created.completed_at).toBeUndefined();
    expect(created.tools[0]).toMatchObject({ strict: false });
    const completed = events.find((event) => event.type === 'response.completed')!.response!;
    expect(completed.completed_at).toBeGreaterThanOrEqual(before);
  });

  it('refuses a custom tool as a free-form tool, not a hosted one', async () => {
    const failure = await bed.client.responses
      .create({ model: 'bridged-model', input: 'Go', tools: [{ type: 'custom', name: 'patch' }] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    expect((failure as Error).message).toContain(
      'tools[0]: custom tools (free-form input) are not translated for this model; send function tools',
    );
    expect(bed.upstream.requests).toHaveLength(0);
  });

  it('names the parameter a misspelt one meant', async () => {
    const failure = await bed.client.responses
      .create({ model: 'bridged-model', input: 'Go', max_output_token: 5 } as never)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    expect((failure as Error).message).toContain(
      "max_output_token: unknown parameter of the Responses API; did you mean 'max_output_tokens'?",
    );
    expect(bed.upstream.requests).toHaveLength(0);
  });
});
