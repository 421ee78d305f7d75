import { createHash } from 'node:crypto';
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { withSdkClients, type HarnessClients } from './support/harness.js';

/**
 * What an Anthropic Messages client (Claude Code's shape of request) sends to a model served by chat
 * completions arrives in a form OpenAI and local servers take, and the answer reads as if the model
 * had seen the request as written. The same IR serves a Responses client over chat, checked alongside.
 */

/** The tool names OpenAI takes; it refuses the whole request over any other. */
const OPENAI_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const LONG = `mcp__claude_in_chrome_extension_server__${'navigate_to_page_and_capture_screenshot'}`;
const DOTTED = 'files.read';
const schema = { type: 'object', properties: { url: { type: 'string' } } } as const;
const tools: Anthropic.Tool[] = [
  { name: LONG, description: 'Navigate', input_schema: schema },
  { name: DOTTED, description: 'Read', input_schema: schema },
  { name: 'short_tool', description: 'Short', input_schema: schema },
];

/** Every tool name a chat completions body carries, wherever it stands. */
function namesSent(body: any): string[] {
  const names: string[] = (body.tools ?? []).map((tool: any) => tool.function.name);
  if (body.tool_choice?.function) names.push(body.tool_choice.function.name);
  for (const message of body.messages)
    for (const call of message.tool_calls ?? []) names.push(call.function.name as string);
  return names;
}

describe('Messages and Responses clients of a chat completions model', () => {
  let c: HarnessClients;
  withSdkClients({ llm: { allowed_models: ['gpt-4o-mini', 'o3-mini'] } }, ['*'], (clients) => (c = clients));

  describe('tool names', () => {
    const history: Anthropic.MessageParam[] = [
      { role: 'user', content: 'Open the page.' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: LONG, input: { url: 'a' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'done' }] },
    ];
    const request = {
      model: 'gpt-4o-mini',
      max_tokens: 64,
      tools,
      tool_choice: { type: 'tool' as const, name: LONG },
      messages: history,
    };

    /** The name the upstream got for `name`, read from the tools it was sent. */
    function sentName(name: string): string {
      const body = c.h.openai.lastRequest()!.body;
      const index = tools.findIndex((tool) => tool.name === name);
      return body.tools[index].function.name as string;
    }

    it('are sent in a form OpenAI takes everywhere they stand, the same every time', async () => {
      await c.anthropic.messages.create(request);
      const body = c.h.openai.lastRequest()!.body;
      const names = namesSent(body);
      expect(names).toHaveLength(5);
      for (const name of names) expect(name).toMatch(OPENAI_TOOL_NAME);
      const long = sentName(LONG);
      expect(long).not.toBe(sentName(DOTTED));
      expect(sentName('short_tool')).toBe('short_tool');
      expect(body.tool_choice).toEqual({ type: 'function', function: { name: long } });
      expect(body.messages[1].tool_calls[0].function.name).toBe(long);
      await c.anthropic.messages.create(request);
      expect(sentName(LONG)).toBe(long);
    });

    it('come back as the client sent them, whole and streamed', async () => {
      await c.anthropic.messages.create(request);
      const long = sentName(LONG);
      const dotted = sentName(DOTTED);
      const reply = {
        toolCalls: [
          { id: 'call_1', name: long, arguments: { url: 'b' } },
          { id: 'call_2', name: dotted, arguments: { url: 'c' } },
          { id: 'call_3', name: 'short_tool', arguments: { url: 'd' } },
        ],
      };
      c.h.openai.setNext({ reply });
      const whole = await c.anthropic.messages.create(request);
      expect(whole.content.map((block) => (block.type === 'tool_use' ? block.name : block.type))).toEqual([
        LONG,
        DOTTED,
        'short_tool',
      ]);
      c.h.openai.setNext({ reply });
      const stream = c.anthropic.messages.stream(request);
      const started: string[] = [];
      for await (const event of stream)
        if (event.type === 'content_block_start' && event.content_block.type === 'tool_use')
          started.push(event.content_block.name);
      expect(started).toEqual([LONG, DOTTED, 'short_tool']);
      const final = await stream.finalMessage();
      expect(final.content).toMatchObject([
        { type: 'tool_use', name: LONG, input: { url: 'b' } },
        { type: 'tool_use', name: DOTTED, input: { url: 'c' } },
        { type: 'tool_use', name: 'short_tool', input: { url: 'd' } },
      ]);
    });

    it('of a Responses client are shortened and restored the same way', async () => {
      const responsesTools: OpenAI.Responses.Tool[] = [
        { type: 'function', name: LONG, parameters: schema, strict: false },
      ];
      const input = 'Open the page.';
      await c.openai.responses.create({ model: 'gpt-4o-mini', input, tools: responsesTools });
      const long = c.h.openai.lastRequest()!.body.tools[0].function.name as string;
      expect(long).toMatch(OPENAI_TOOL_NAME);
      const reply = { toolCalls: [{ id: 'call_1', name: long, arguments: { url: 'b' } }] };
      c.h.openai.setNext({ reply });
      const whole = await c.openai.responses.create({ model: 'gpt-4o-mini', input, tools: responsesTools });
      expect(whole.output).toMatchObject([{ type: 'function_call', name: LONG }]);
      c.h.openai.setNext({ reply });
      const stream = await c.openai.responses.create({
        model: 'gpt-4o-mini',
        input,
        tools: responsesTools,
        stream: true,
      });
      const added: string[] = [];
      for await (const event of stream)
        if (event.type === 'response.output_item.added' && event.item.type === 'function_call')
          added.push(event.item.name);
      expect(added).toEqual([LONG]);
    });
  });

  it('sends a long metadata.user_id as its 64-character hash, and a short one as it is', async () => {
    const userId = `user_${'a1'.repeat(40)}_account_${'0'.repeat(36)}_session_${'f'.repeat(36)}`;
    expect(userId.length).toBeGreaterThan(128);
    const ask = (user_id: string) =>
      c.anthropic.messages.create({
        model: 'gpt-4o-mini',
        max_tokens: 16,
        metadata: { user_id },
        messages: [{ role: 'user', content: 'hi' }],
      });
    await ask(userId);
    const hashed = c.h.openai.lastRequest()!.body.user as string;
    expect(hashed).toBe(createHash('sha256').update(userId).digest('hex'));
    expect(hashed).toHaveLength(64);
    await ask(userId);
    expect(c.h.openai.lastRequest()!.body.user).toBe(hashed);
    await ask('u-1');
    expect(c.h.openai.lastRequest()!.body.user).toBe('u-1');
  });

  describe('reasoning models', () => {
    const ask = (model: string, extra: Record<string, unknown>) =>
      c.anthropic.messages.create({
        model,
        max_tokens: 16_000,
        temperature: 0.7,
        top_p: 0.9,
        stop_sequences: ['END'],
        messages: [{ role: 'user', content: 'hi' }],
        ...extra,
      } as Anthropic.MessageCreateParamsNonStreaming);

    it('get no sampling hints, and the thinking budget as reasoning_effort', async () => {
      await ask('o3-mini', { thinking: { type: 'enabled', budget_tokens: 2000 } });
      const body = c.h.openai.lastRequest()!.body;
      expect(body).not.toHaveProperty('temperature');
      expect(body).not.toHaveProperty('top_p');
      expect(body).toMatchObject({ stop: ['END'], reasoning_effort: 'medium', max_completion_tokens: 16_000 });
      for (const [budget, effort] of [
        [1024, 'low'],
        [8192, 'medium'],
        [8193, 'high'],
      ] as const) {
        await ask('o3-mini', { thinking: { type: 'enabled', budget_tokens: budget } });
        expect(c.h.openai.lastRequest()!.body.reasoning_effort).toBe(effort);
      }
      await ask('o3-mini', { thinking: { type: 'disabled' } });
      expect(c.h.openai.lastRequest()!.body).not.toHaveProperty('reasoning_effort');
      await ask('o3-mini', {});
      expect(c.h.openai.lastRequest()!.body).not.toHaveProperty('reasoning_effort');
    });

    it('leave other models their sampling hints and no reasoning_effort', async () => {
      await ask('gpt-4o-mini', { thinking: { type: 'enabled', budget_tokens: 2000 } });
      const body = c.h.openai.lastRequest()!.body;
      expect(body).toMatchObject({ temperature: 0.7, top_p: 0.9, stop: ['END'] });
      expect(body).not.toHaveProperty('reasoning_effort');
    });

    it('of a Responses client get no sampling hints either', async () => {
      await c.openai.responses.create({ model: 'o3-mini', input: 'hi', temperature: 0.5, top_p: 0.5 });
      const body = c.h.openai.lastRequest()!.body;
      expect(body).not.toHaveProperty('temperature');
      expect(body).not.toHaveProperty('top_p');
    });
  });

  it('joins the system blocks into one system message at the start', async () => {
    await c.anthropic.messages.create({
      model: 'gpt-4o-mini',
      max_tokens: 16,
      system: [
        { type: 'text', text: 'You are Claude Code.' },
        { type: 'text', text: '   ' },
        { type: 'text', text: 'Answer briefly.' },
      ],
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(c.h.openai.lastRequest()!.body.messages).toEqual([
      { role: 'system', content: 'You are Claude Code.\n\nAnswer briefly.' },
      { role: 'user', content: 'hi' },
    ]);
  });
});
