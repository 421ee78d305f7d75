import { beforeEach, describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

const BMP = 'data:image/bmp;base64,Qk0eAAAAAAAAABoAAAAMAAAAAQABAAEAGAAAAP8A';

/** The error a refused call throws, with its status, message and `param`. */
async function refusal(call: Promise<unknown>): Promise<{ status: number; message: string; param: unknown }> {
  const error = (await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )) as { status?: number; message: string; error?: unknown };
  expect(error).toBeDefined();
  // The openai SDK holds the body's `error`, Anthropic's the whole body.
  type Fields = { message?: string; param?: unknown };
  const body = error.error as (Fields & { error?: Fields }) | undefined;
  const fields = body?.error ?? body;
  return { status: error.status as number, message: fields?.message ?? error.message, param: fields?.param };
}

/**
 * What a translated request holds that the target cannot take is the client's mistake: a 400 naming
 * the client's own field, before any provider is called, not the provider's refusal relayed as a 502.
 */
describe('translated requests the target cannot take', () => {
  const context = harnessWithKey();
  beforeEach(() => {
    context.harness.anthropic.reset();
    context.harness.openai.reset();
  });
  const openai = () => context.harness.openaiClient(context.key);
  const claude = () => context.harness.anthropicClient(context.key);
  const weather = {
    type: 'function' as const,
    function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
  };

  it('an image of a type Claude cannot read is a 400 naming the image_url', async () => {
    const ask = (url: string) =>
      openai().chat.completions.create({
        model: 'claude-opus-4-7',
        messages: [
          { role: 'user', content: 'first' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'what is it?' },
              { type: 'image_url', image_url: { url } },
            ],
          },
        ],
      });
    for (const url of [BMP, 'data:application/pdf;base64,JVBERi0x']) {
      const refused = await refusal(ask(url));
      expect(refused.status).toBe(400);
      expect(refused.param).toBe('messages[1].content[1].image_url.url');
      expect(refused.message).toContain(
        `messages[1].content[1].image_url.url: an image of type ${url.slice(5, url.indexOf(';'))}: Anthropic models read image/jpeg, image/png, image/gif and image/webp images`,
      );
    }
    const responses = await refusal(
      openai().responses.create({
        model: 'claude-opus-4-7',
        input: [{ role: 'user', content: [{ type: 'input_image', image_url: BMP, detail: 'auto' }] }],
      }),
    );
    expect(responses.status).toBe(400);
    expect(responses.message).toContain('input[0].content[0].image_url: an image of type image/bmp');
    expect(context.harness.anthropic.requests).toHaveLength(0);
    // The four it reads still go, in any letter case.
    await openai().chat.completions.create({
      model: 'claude-opus-4-7',
      messages: [
        {
          role: 'user',
          content: ['image/JPEG', 'image/png', 'image/gif', 'image/webp'].map((type) => ({
            type: 'image_url' as const,
            image_url: { url: `data:${type};base64,AAAA` },
          })),
        },
      ],
    });
    expect(context.harness.anthropic.requests).toHaveLength(1);
  });

  it('an image Claude cannot read still reaches a chat model, whose rules are its own', async () => {
    await claude().messages.create({
      model: 'gpt-4o-mini',
      max_tokens: 10,
      messages: [
        {
          role: 'user',
          content: [
            // The SDK's type lists Anthropic's four; the gateway's Messages endpoint serves other models too.
            { type: 'image', source: { type: 'base64', media_type: 'image/bmp' as 'image/png', data: BMP.slice(22) } },
          ],
        },
      ],
    });
    expect(JSON.stringify(context.harness.openai.lastRequest()!.body)).toContain(BMP);
  });

  it('a chat file of a type Claude cannot read is a 400 naming its file_data', async () => {
    const refused = await refusal(
      openai().chat.completions.create({
        model: 'claude-opus-4-7',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'summarise' },
              { type: 'file', file: { filename: 'a.doc', file_data: 'data:application/msword;base64,AAAA' } },
            ],
          },
        ],
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.param).toBe('messages[0].content[1].file.file_data');
    expect(refused.message).toContain(
      'messages[0].content[1].file.file_data: a file of type application/msword: Anthropic models read PDF (application/pdf) and text (text/*) files',
    );
    expect(context.harness.anthropic.requests).toHaveLength(0);
  });

  it('a tool_choice naming a tool not in tools is a 400 naming tool_choice, from every client format', async () => {
    const chat = await refusal(
      openai().chat.completions.create({
        model: 'claude-opus-4-7',
        messages: [{ role: 'user', content: 'x' }],
        tools: [weather],
        tool_choice: { type: 'function', function: { name: 'nope' } },
      }),
    );
    const messages = await refusal(
      claude().messages.create({
        model: 'gpt-4o-mini',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'x' }],
        tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: {} } }],
        tool_choice: { type: 'tool', name: 'nope' },
      }),
    );
    const responses = await refusal(
      openai().responses.create({
        model: 'claude-opus-4-7',
        input: 'x',
        tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object' }, strict: false }],
        tool_choice: { type: 'function', name: 'nope' },
      }),
    );
    for (const refused of [chat, messages]) {
      expect(refused.status).toBe(400);
      expect(refused.message).toContain('tool_choice: no tool named "nope" in tools; name one of "get_weather"');
    }
    expect(chat.param).toBe('tool_choice');
    expect(responses.status).toBe(400);
    expect(responses.message).toContain('tool_choice.name: no function named "nope" in tools');
    expect(context.harness.anthropic.requests).toHaveLength(0);
    expect(context.harness.openai.requests).toHaveLength(0);
    // A tool it offers is still forced.
    await openai().chat.completions.create({
      model: 'claude-opus-4-7',
      messages: [{ role: 'user', content: 'x' }],
      tools: [weather],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    });
    expect((context.harness.anthropic.lastRequest()!.body as { tool_choice: unknown }).tool_choice).toEqual({
      type: 'tool',
      name: 'get_weather',
    });
  });

  it("a Messages tool's strict: true reaches a chat model as function.strict when the schema meets OpenAI's rules", async () => {
    const closed = {
      type: 'object' as const,
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    };
    const open = { type: 'object' as const, properties: { city: { type: 'string' }, unit: { type: 'string' } } };
    await claude().messages.create({
      model: 'gpt-4o-mini',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'x' }],
      tools: [
        { name: 'closed', strict: true, input_schema: closed },
        // Anthropic takes optional properties in strict mode; OpenAI would refuse the request over them.
        {
          name: 'optional_unit',
          strict: true,
          input_schema: { ...open, required: ['city'], additionalProperties: false },
        },
        { name: 'not_strict', input_schema: closed },
      ],
    });
    const tools = (
      context.harness.openai.lastRequest()!.body as { tools: Array<{ function: Record<string, unknown> }> }
    ).tools;
    expect(tools.map((tool) => [tool.function.name, tool.function.strict])).toEqual([
      ['closed', true],
      ['optional_unit', undefined],
      ['not_strict', undefined],
    ]);
  });
});
