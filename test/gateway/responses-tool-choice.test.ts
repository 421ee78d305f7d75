import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { responsesTestBed } from '../support/responses-test-bed.js';

const KEY = 'sk-tool-choice-0123456789';

/**
 * Every `tool_choice` and input shape OpenAI's Responses API takes reaches a native Responses
 * upstream; one a chat upstream cannot honour is refused naming it, before any upstream call.
 */
describe('Responses tool_choice and nullable input fields', () => {
  const bed = responsesTestBed(KEY);

  const choices: Array<Pick<OpenAI.Responses.ResponseCreateParamsNonStreaming, 'tools' | 'tool_choice'>> = [
    { tools: [{ type: 'web_search_preview' }], tool_choice: { type: 'web_search_preview' } },
    {
      tools: [{ type: 'function', name: 'weather', parameters: {}, strict: false }],
      tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'weather' }] },
    },
    { tools: [{ type: 'custom', name: 'patch' }], tool_choice: { type: 'custom', name: 'patch' } },
    {
      tools: [{ type: 'mcp', server_label: 'wiki', server_url: 'https://mcp.example.com' }],
      tool_choice: { type: 'mcp', server_label: 'wiki' },
    },
  ];

  it.each(choices)('forwards tool_choice $tool_choice.type to a native Responses upstream', async (params) => {
    const response = await bed.client.responses.create({ model: 'native-model', input: 'Go', ...params });
    expect(response.output_text).toBe('You said: Go');
    expect(bed.upstream.lastRequest()!.body).toMatchObject({ tool_choice: params.tool_choice, tools: params.tools });
  });

  it.each([
    [
      { tool_choice: { type: 'web_search_preview' } } as const,
      'tool_choice: the hosted tool web_search_preview needs a model with a native Responses API',
    ],
    [choices[1], 'tool_choice: allowed_tools is not translated for this model'],
    [{ tool_choice: { type: 'custom', name: 'patch' } } as const, 'tool_choice: custom tools are not translated'],
    [{ tool_choice: { type: 'file_search' } } as const, 'tool_choice: the hosted tool file_search needs'],
  ] as const)('refuses a tool_choice a chat upstream cannot honour, naming it (%#)', async (params, message) => {
    const tools = [{ type: 'function' as const, name: 'weather', parameters: {}, strict: false }];
    const call = bed.client.responses.create({ model: 'bridged-model', input: 'Go', tools, ...params });
    await expect(call).rejects.toMatchObject({ status: 400, message: expect.stringContaining(message) });
    expect(bed.upstream.requests).toHaveLength(0);
  });

  it('refuses a parameter the Responses API does not have, as OpenAI does, pointing chat names to theirs', async () => {
    const refused = (extra: Record<string, unknown>) =>
      bed.client.responses.create({ model: 'bridged-model', input: 'Go', ...extra } as never);
    // A chat habit: dropped over chat completions, it would have left the answer unlimited.
    await expect(refused({ max_tokens: 50 })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining(
        'max_tokens: unknown parameter of the Responses API; it takes this as max_output_tokens',
      ),
    });
    await expect(refused({ temprature: 0.2 })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('temprature: unknown parameter of the Responses API'),
    });
    expect(bed.upstream.requests).toHaveLength(0);
    // Every parameter the SDK sends still goes through.
    await bed.client.responses.create({
      model: 'bridged-model',
      input: 'Go',
      max_output_tokens: 50,
      safety_identifier: 'user-1',
      prompt_cache_key: 'k',
      truncation: 'auto',
      service_tier: 'auto',
      text: { format: { type: 'text' }, verbosity: 'low' },
      reasoning: { effort: 'low' },
      metadata: { a: 'b' },
    });
    expect(bed.upstream.requests).toHaveLength(1);
  });

  it('still translates a function tool_choice for a chat upstream', async () => {
    await bed.client.responses.create({
      model: 'bridged-model',
      input: 'Go',
      tools: [{ type: 'function', name: 'weather', parameters: {}, strict: false }],
      tool_choice: { type: 'function', name: 'weather' },
    });
    expect(bed.upstream.lastRequest()!.body.tool_choice).toEqual({ type: 'function', function: { name: 'weather' } });
  });

  it('takes an input image whose image_url is null beside its file_id, as the SDK types allow', async () => {
    const input: OpenAI.Responses.ResponseInput = [
      { role: 'user', content: [{ type: 'input_image', image_url: null, file_id: 'file-abc', detail: 'auto' }] },
    ];
    await bed.client.responses.create({ model: 'native-model', input });
    expect(bed.upstream.lastRequest()!.body.input).toEqual(input);
  });
});
