import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { withSdkClients, type HarnessClients } from './support/harness.js';

// As written in the settings (YAML `'launch\s+codes'`): one backslash.
const PATTERN = 'launch\\s+codes';

/**
 * A content-policy refusal and an answer stop name the pattern as it was configured, not JSON-escaped,
 * so what the client, the traffic view and the UI show can be copied back into the settings.
 */
describe('content policy: the pattern as configured in refusals', () => {
  let c: HarnessClients;
  withSdkClients(
    { content_policy: { blocked_patterns: [PATTERN], blocked_answer_patterns: ['top\\s+secret'] } },
    ['chat'],
    (clients) => (c = clients),
  );

  const lastTraffic = async () => (await c.h.admin('GET', '/internal/traffic?limit=1')).body.data[0];

  it('a refused request: the SDK error and the traffic record', async () => {
    const error = await c.openai.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'the launch codes' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const reason = 'blocked pattern "launch\\s+codes" matched in messages[0].content';
    expect((error as Error).message).toBe(`400 request refused by the content policy: ${reason}`);
    expect((error as { status?: number }).status).toBe(400);
    const event = await lastTraffic();
    expect(event.error_type).toBe('content_policy_violation');
    expect(event.response_body.error.message).toBe(`request refused by the content policy: ${reason}`);
    expect(c.h.openai.requests).toHaveLength(0);
  });

  it('a stopped answer: the reason in the traffic record', async () => {
    c.h.openai.setNext({ reply: { text: 'this is top secret' } });
    const completion = await c.openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(completion.choices[0]!.finish_reason).toBe('content_filter');
    expect((await lastTraffic()).guardrails.answer_stopped).toEqual({
      pattern: 'top\\s+secret',
      reason: 'blocked answer pattern "top\\s+secret" matched in choices[0].message.content',
    });
  });
});
