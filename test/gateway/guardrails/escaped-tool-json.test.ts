import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

/**
 * Tool-call arguments and tool results are JSON, whose escapes (`\u0040`, `\u0020`) hide a value from a
 * scan of the text as written. The model reads them decoded, and a translation to Messages decodes the
 * arguments into an object before sending them: scrubbing and the content policy read them decoded too.
 */
describe('JSON escapes in tool calls and tool results', () => {
  let h: GatewayHarness;
  let key: string;
  beforeAll(async () => {
    h = await startGatewayHarness({
      pii: { mode: 'mask' },
      content_policy: { blocked_patterns: ['launch\\s+codes'] },
    });
    key = (await h.issueKey({ scopes: ['chat', 'responses'] })).key;
  });
  beforeEach(() => {
    h.openai.reset();
    h.anthropic.reset();
  });
  afterAll(() => h.close());

  // Escapes as they travel: the JSON text of the arguments holds a backslash and `u0040`.
  const escapedArguments = String.raw`{"to":"ada\u0040example.com","card":"4111\u00201111\u00201111\u00201111","note":"line\nbreak"}`;
  const chatTurn = (args: string, result: string) => [
    { role: 'user', content: 'Send it.' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'send', arguments: args } }],
    },
    { role: 'tool', tool_call_id: 'call_1', content: result },
  ];
  const post = (path: string, body: unknown) =>
    fetch(`${h.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('scrubs escaped values in arguments and results, on the translated and the native path', async () => {
    const result = String.raw`{"sent_to":"ada\u0040example.com"}`;
    for (const [model, upstream] of [
      ['claude-opus-4-7', () => h.anthropic.lastRequest()!.rawBody],
      ['gpt-4o-mini', () => h.openai.lastRequest()!.rawBody],
    ] as const) {
      const answer = await post('/v1/chat/completions', { model, messages: chatTurn(escapedArguments, result) });
      expect({ model, status: answer.status }).toEqual({ model, status: 200 });
      // What the provider received, decoded as the model reads it.
      const seen = JSON.stringify(JSON.parse(upstream()));
      const decoded = seen.replace(/\\u0040/g, '@').replace(/\\u0020/g, ' ');
      expect(decoded).not.toContain('ada@example.com');
      expect(decoded).not.toContain('4111 1111 1111 1111');
      expect(decoded).toContain('[EMAIL_1]');
      expect(decoded).toContain('[CREDIT_CARD_1]');
    }
    // The arguments stay JSON, with the values that were not personal data as they were.
    const sent = h.openai.lastRequest()!.body as {
      messages: Array<{ tool_calls?: Array<{ function: { arguments: string } }> }>;
    };
    expect(JSON.parse(sent.messages[1]!.tool_calls![0]!.function.arguments)).toEqual({
      to: '[EMAIL_1]',
      card: '[CREDIT_CARD_1]',
      note: 'line\nbreak',
    });
  });

  it('rewrites only the values it scrubbed, and reads what a parser would refuse to build', async () => {
    const texts = [
      // Everything else byte for byte: a number past a double's precision, 1.0, spacing, escapes.
      String.raw`{ "id": 12345678901234567890, "ratio": 1.0, "to": "ada@example.com", "note": "a	b" }`,
      // Keys and values a parser must not build objects from, and a number past a double's range.
      String.raw`{"__proto__": 1, "n": 1e400, "to": "ada@example.com"}`,
      // Nesting deeper than a request body may have.
      '['.repeat(300) + String.raw`"ada@example.com"` + ']'.repeat(300),
    ];
    const expected = [
      String.raw`{ "id": 12345678901234567890, "ratio": 1.0, "to": "[EMAIL_1]", "note": "a	b" }`,
      String.raw`{"__proto__": 1, "n": 1e400, "to": "[EMAIL_1]"}`,
      '['.repeat(300) + '"[EMAIL_1]"' + ']'.repeat(300),
    ];
    for (const [index, args] of texts.entries()) {
      h.openai.reset();
      const answer = await post('/v1/chat/completions', { model: 'gpt-4o-mini', messages: chatTurn(args, 'ok') });
      expect({ index, status: answer.status }).toEqual({ index, status: 200 });
      const raw = JSON.parse(h.openai.lastRequest()!.rawBody) as {
        messages: Array<{ tool_calls?: Array<{ function: { arguments: string } }> }>;
      };
      expect(raw.messages[1]!.tool_calls![0]!.function.arguments).toBe(expected[index]);
    }
    const refused = await post('/v1/chat/completions', {
      model: 'gpt-4o-mini',
      messages: chatTurn(String.raw`{"__proto__": 1, "q": "launch codes"}`, 'ok'),
    });
    expect(refused.status).toBe(400);
  });

  it('forwards arguments without anything to scrub exactly as written', async () => {
    const args = String.raw`{"path":"C:\\temp\\notes.txt", "line": "a\tb"}`;
    const answer = await post('/v1/chat/completions', { model: 'gpt-4o-mini', messages: chatTurn(args, 'ok') });
    expect(answer.status).toBe(200);
    const sent = h.openai.lastRequest()!.body as {
      messages: Array<{ tool_calls?: Array<{ function: { arguments: string } }> }>;
    };
    expect(sent.messages[1]!.tool_calls![0]!.function.arguments).toBe(args);
  });

  it('refuses a blocked pattern written with escapes, in chat arguments and in Responses function calls', async () => {
    const chat = await post('/v1/chat/completions', {
      model: 'claude-opus-4-7',
      messages: chatTurn(String.raw`{"q":"launch\u0020codes"}`, 'ok'),
    });
    expect(chat.status).toBe(400);
    expect(((await chat.json()) as { error: { type: string } }).error.type).toBe('content_policy_violation');

    const responses = await post('/v1/responses', {
      model: 'gpt-4o-mini',
      input: [
        { type: 'function_call', call_id: 'call_1', name: 'search', arguments: String.raw`{"q":"launch\u0020codes"}` },
        { type: 'function_call_output', call_id: 'call_1', output: 'nothing' },
      ],
    });
    expect(responses.status).toBe(400);
    expect(h.openai.requests).toHaveLength(0);
    expect(h.anthropic.requests).toHaveLength(0);
  });
});
