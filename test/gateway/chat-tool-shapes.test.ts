import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harnessWithKey, startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * Request shapes the official client's types allow on chat completions: custom (free-form) tools
 * and their calls, `allowed_tools` and custom tool choices, and legacy `function` messages. The native
 * path forwards every parameter to the server; a translated one refuses what it cannot say, by name.
 */
describe('chat completions tool shapes of the current OpenAI API', () => {
  const context = harnessWithKey();
  beforeEach(() => {
    context.harness.openai.reset();
    context.harness.anthropic.reset();
  });

  const customTool = {
    type: 'custom' as const,
    custom: { name: 'sql', description: 'a query', format: { type: 'text' as const } },
  };
  const functionTool = { type: 'function' as const, function: { name: 'lookup', parameters: { type: 'object' } } };
  const history: OpenAI.ChatCompletionMessageParam[] = [
    { role: 'user', content: 'How many users?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'custom', custom: { name: 'sql', input: 'select count(*) from users' } }],
    },
    { role: 'tool', tool_call_id: 'call_1', content: '42' },
  ];

  it('forwards custom tools, their calls and the newer tool choices to an OpenAI deployment as sent', async () => {
    const client = context.harness.openaiClient(context.key);
    const requests: OpenAI.ChatCompletionCreateParamsNonStreaming[] = [
      {
        model: 'gpt-4o-mini',
        messages: history,
        tools: [customTool],
        tool_choice: { type: 'custom', custom: { name: 'sql' } },
      },
      {
        model: 'gpt-4o-mini',
        messages: history,
        tools: [customTool, functionTool],
        tool_choice: {
          type: 'allowed_tools',
          allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name: 'lookup' } }] },
        },
      },
      {
        model: 'gpt-4o-mini',
        messages: [
          { role: 'user', content: 'weather?' },
          { role: 'assistant', content: null, function_call: { name: 'lookup', arguments: '{}' } },
          { role: 'function', name: 'lookup', content: 'sunny' },
        ],
      },
    ];
    for (const request of requests) {
      const completion = await client.chat.completions.create(request);
      expect(completion.choices[0]!.message.content).toMatch(/^You said: /);
      const { model: _model, ...sent } = context.harness.openai.lastRequest()!.body;
      const { model: _public, ...asked } = request;
      expect(sent).toEqual({ ...asked, max_tokens: 100 });
    }
  });

  it('refuses each on a Claude deployment with a message naming the field, before any upstream call', async () => {
    const client = context.harness.openaiClient(context.key);
    const refusals: Array<[OpenAI.ChatCompletionCreateParamsNonStreaming, string]> = [
      [
        { model: 'claude-opus-4-7', messages: [{ role: 'user', content: 'x' }], tools: [customTool] },
        '400 tools[0]: custom tools',
      ],
      [
        { model: 'claude-opus-4-7', messages: history, tools: [functionTool] },
        '400 messages[1].tool_calls[0]: custom tool calls',
      ],
      [
        {
          model: 'claude-opus-4-7',
          messages: [{ role: 'user', content: 'x' }],
          tools: [functionTool],
          tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [functionTool] } },
        },
        '400 tool_choice: allowed_tools',
      ],
      [
        {
          model: 'claude-opus-4-7',
          messages: [
            { role: 'user', content: 'x' },
            { role: 'function', name: 'lookup', content: 'sunny' },
          ],
        },
        '400 messages[1]: function messages',
      ],
    ];
    for (const [request, message] of refusals) {
      const error = await client.chat.completions.create(request).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as Error).message.startsWith(message), (error as Error).message).toBe(true);
    }
    expect(context.harness.anthropic.requests).toHaveLength(0);
  });
});

describe('personal data in the calls and results of custom tools and legacy functions', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness({ pii: { mode: 'mask', entities: ['email'] } });
  });
  afterAll(async () => h.close());

  it('is masked before the upstream sees it, as in function calls', async () => {
    const client = h.openaiClient((await h.issueKey({ scopes: ['chat'] })).key);
    await client.chat.completions.create({
      model: 'gpt-4o-mini',
      tools: [{ type: 'custom', custom: { name: 'mail' } }],
      messages: [
        { role: 'user', content: 'Write to the team.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'custom', custom: { name: 'mail', input: 'to: ada@example.com' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sent' },
        { role: 'function', name: 'lookup', content: 'owner: grace@example.com' },
        { role: 'user', content: 'Thanks.' },
      ],
    });
    const sent = JSON.stringify(h.openai.lastRequest()!.body.messages);
    expect(sent).not.toContain('ada@example.com');
    expect(sent).not.toContain('grace@example.com');
    expect(sent).toContain('to: ');
  });
});
