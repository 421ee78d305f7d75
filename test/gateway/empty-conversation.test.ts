import { describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

// A conversation with no turn left to send is the client's 400, naming the field, never a request
// forwarded with `messages: []` for the provider to refuse (which the client would get as a 502).
describe('requests with an empty conversation', () => {
  const context = harnessWithKey();

  const call = async (path: string, body: unknown) => {
    const response = await fetch(`${context.harness.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${context.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as { error?: { message: string; type: string } };
    return { status: response.status, type: json.error?.type, message: json.error?.message ?? '' };
  };
  const messages = (turns: unknown[]) => call('/v1/messages', { model: 'demo/echo', max_tokens: 16, messages: turns });

  it('Messages: a turn with no content blocks is refused, naming it', async () => {
    const answer = await messages([{ role: 'user', content: [] }]);
    expect(answer.status).toBe(400);
    expect(answer.type).toBe('invalid_request_error');
    expect(answer.message).toContain('messages[0].content');
    expect(answer.message).toContain('must not be empty');
    const middle = await messages([
      { role: 'user', content: 'a' },
      { role: 'assistant', content: [] },
      { role: 'user', content: 'b' },
    ]);
    expect(middle.message).toContain('messages[1].content');
    const blank = await messages([{ role: 'user', content: '  ' }]);
    expect(blank.message).toContain('messages[0].content');
    // Blocks that are all blank text are no content either: Anthropic refuses a whitespace-only text block.
    const blankBlocks = await messages([
      {
        role: 'user',
        content: [
          { type: 'text', text: ' ' },
          { type: 'text', text: '\n' },
        ],
      },
    ]);
    expect(blankBlocks.status).toBe(400);
    expect(blankBlocks.message).toContain('messages[0].content');
    // A prefill alone is no conversation.
    const onlyPrefill = await messages([{ role: 'assistant', content: [] }]);
    expect(onlyPrefill.message).toContain('messages[0].content');
  });

  it('Messages: an empty final assistant turn (a prefill) is still accepted', async () => {
    const answer = await messages([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [] },
    ]);
    expect(answer.status).toBe(200);
  });

  it('chat for a Claude model: no turn with content is refused, naming it, before any upstream call', async () => {
    context.harness.anthropic.reset();
    for (const turns of [
      [{ role: 'user', content: [] }],
      [{ role: 'user', content: '' }],
      [{ role: 'user', content: ' \n\t' }],
      [{ role: 'system', content: 'be brief' }],
    ]) {
      const answer = await call('/v1/chat/completions', { model: 'claude-opus-4-7', messages: turns });
      expect(answer.status).toBe(400);
      expect(answer.message).toContain('messages: no user or assistant turn has content to send');
    }
    expect(context.harness.anthropic.requests).toHaveLength(0);
  });

  it('Responses: an input with no turn is refused for a model served over chat or Messages', async () => {
    const answer = await call('/v1/responses', { model: 'demo/echo', input: [] });
    expect(answer.status).toBe(400);
    expect(answer.message).toContain('input: has no user or assistant turn');
    const onlyInstructions = await call('/v1/responses', {
      model: 'demo/echo',
      input: [{ role: 'developer', content: 'be brief' }],
    });
    expect(onlyInstructions.status).toBe(400);
    expect((await call('/v1/responses', { model: 'demo/echo', input: 'hi' })).status).toBe(200);
  });
});
