import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

const CARD = '4111111111111111';
// Arguments and results as clients write them: the card as a JSON number, no escape anywhere.
const ARGS = `{"card":${CARD},"amount":12.5}`;
const RESULT = `{"charged":${CARD},"ok":true}`;

/** A chat turn that called a tool with `args` and got `result` back. */
const chatTurn = (args: string, result: string): OpenAI.ChatCompletionMessageParam[] => [
  { role: 'user', content: 'Charge it.' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'charge', arguments: args } }],
  },
  { role: 'tool', tool_call_id: 'call_1', content: result },
];

/**
 * A value found in tool-call arguments or a tool result goes in as a JSON string, wherever the text
 * is JSON: a card number written as a JSON number must not become bare `[CREDIT_CARD_1]`, which no
 * parser reads (and a translation to Messages would send as `_raw_arguments`).
 */
describe('PII in JSON numbers of tool calls and tool results', () => {
  let h: GatewayHarness;
  let openai: OpenAI;
  beforeAll(async () => {
    h = await startGatewayHarness({ pii: { mode: 'mask' } });
    openai = h.openaiClient((await h.issueKey({ scopes: ['chat', 'responses'] })).key);
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.openai.reset();
    h.anthropic.reset();
  });

  it('chat to OpenAI: arguments and the result stay JSON, with the card a placeholder string', async () => {
    await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: chatTurn(ARGS, RESULT) });
    const sent = h.openai.lastRequest()!.body.messages;
    expect(sent[1].tool_calls[0].function.arguments).toBe('{"card":"[CREDIT_CARD_1]","amount":12.5}');
    expect(sent[2].content).toBe('{"charged":"[CREDIT_CARD_1]","ok":true}');
  });

  it('chat translated to Messages: the tool_use input is the object, not raw arguments', async () => {
    await openai.chat.completions.create({ model: 'claude-opus-4-7', messages: chatTurn(ARGS, RESULT) });
    const sent = h.anthropic.lastRequest()!.body.messages;
    expect(sent[1].content).toContainEqual(
      expect.objectContaining({ type: 'tool_use', input: { card: '[CREDIT_CARD_1]', amount: 12.5 } }),
    );
    expect(JSON.stringify(sent)).not.toContain(CARD);
    expect(JSON.stringify(sent)).not.toContain('_raw_arguments');
  });

  it('Responses: function_call arguments and function_call_output stay JSON', async () => {
    await openai.responses.create({
      model: 'gpt-4o-mini',
      store: false,
      input: [
        { type: 'function_call', call_id: 'call_1', name: 'charge', arguments: ARGS },
        { type: 'function_call_output', call_id: 'call_1', output: RESULT },
      ],
    });
    const raw = h.openai.lastRequest()!.rawBody;
    expect(raw).not.toContain(CARD);
    // Native or translated to chat, the arguments and the output reach the upstream as JSON texts.
    const body = h.openai.lastRequest()!.body;
    const texts: string[] =
      body.input !== undefined
        ? [body.input[0].arguments, body.input[1].output]
        : [body.messages.at(-2).tool_calls[0].function.arguments, body.messages.at(-1).content];
    expect(texts.map((text) => JSON.parse(text))).toEqual([
      { card: '[CREDIT_CARD_1]', amount: 12.5 },
      { charged: '[CREDIT_CARD_1]', ok: true },
    ]);
  });

  it('a tool result in prose is still read as written', async () => {
    await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: chatTurn('{}', `Charged ${CARD}; receipt to ada@example.com.`),
    });
    expect(h.openai.lastRequest()!.body.messages[2].content).toBe('Charged [CREDIT_CARD_1]; receipt to [EMAIL_1].');
  });

  it('text that only looks like JSON, strings that hold separators, and content lists are scrubbed as written', async () => {
    const cases: Array<[result: string, sent: string]> = [
      // Not JSON: scanned as written, every value found.
      ['[4111 1111 1111 1111]', '[[CREDIT_CARD_1]]'],
      ['{"n": 4111-1111-1111-1111}', '{"n": [CREDIT_CARD_1]}'],
      // Inside a string, a value next to JSON's separators stays in its string.
      ['{"note":"card:4111111111111111,"}', '{"note":"card:[CREDIT_CARD_1],"}'],
      // An MCP-style content list: the key is no part of the value beside it.
      ['[{"type":"text","text":"ada@example.com"}]', '[{"type":"text","text":"[EMAIL_1]"}]'],
    ];
    for (const [result, sent] of cases) {
      h.openai.reset();
      await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: chatTurn('{}', result) });
      expect(h.openai.lastRequest()!.body.messages[2].content, result).toBe(sent);
    }
  });

  it('a result that only begins like JSON is read once, as written', async () => {
    const blocking = await startGatewayHarness({ pii: { mode: 'block' } });
    try {
      const client = blocking.openaiClient((await blocking.issueKey({ scopes: ['chat'] })).key);
      const failure = await client.chat.completions
        .create({ model: 'gpt-4o-mini', messages: chatTurn('{}', '{"to":"ada@example.com"} was notified') })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
      expect((failure as Error).message).toContain('the request contains 1 email (pii.mode is block)');
    } finally {
      await blocking.close();
    }
  });
});
