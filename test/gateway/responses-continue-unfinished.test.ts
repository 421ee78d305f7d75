import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { withSdkClients, type HarnessClients } from './support/harness.js';

/**
 * A response that is not finished is not a turn to build on: continued while still streamed, the
 * provider got two user turns run together and no answer between them; continued after it was
 * cancelled or failed, its partial text went as a complete answer. Both are refused, naming
 * `previous_response_id`, before any upstream call.
 */
describe('previous_response_id naming a response that did not complete', () => {
  let c: HarnessClients;
  withSdkClients({}, ['responses'], (clients) => (c = clients));

  const refusal = (promise: Promise<unknown>): Promise<unknown> => promise.catch((error: unknown) => error);

  /** A kept response streamed a word at a time, slowly enough to act while it is written. */
  const slowKeptStream = () => {
    c.h.openai.setNext({ reply: { text: 'one two three four five six' }, frameDelayMs: 40 });
    return c.openai.responses.create({ model: 'gpt-4o-mini', input: 'count to six', store: true, stream: true });
  };

  /** How many chat completions the upstream was sent. */
  const upstreamCalls = (): number => c.h.openai.requests.filter((r) => r.path === '/v1/chat/completions').length;

  it('is refused while the response is still being written', async () => {
    const stream = await slowKeptStream();
    let failure: unknown;
    let calls = 0;
    for await (const event of stream) {
      if (event.type !== 'response.created') continue;
      failure = await refusal(
        c.openai.responses.create({
          model: 'gpt-4o-mini',
          input: 'and then?',
          previous_response_id: event.response.id,
        }),
      );
      calls = upstreamCalls();
    }
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    expect((failure as Error).message).toMatch(/previous_response_id: .* is still being written/);
    expect(calls).toBe(1);
  });

  it('is refused once the response was cancelled, its partial text never sent as an answer', async () => {
    const stream = await slowKeptStream();
    let id: string | undefined;
    for await (const event of stream) {
      if (event.type === 'response.created') id = event.response.id;
      // Leaving the loop closes the connection: the client leaves after the first words.
      if (event.type === 'response.output_text.delta') break;
    }
    // The upstream call ends with the client, once what was written is kept as cancelled.
    expect(await c.h.openai.waitForOutcome(0)).toBe('aborted');
    expect((await c.openai.responses.retrieve(id!)).status).toBe('cancelled');
    c.h.openai.reset();

    const failure = await refusal(
      c.openai.responses.create({ model: 'claude-opus-4-7', input: 'go on', previous_response_id: id! }),
    );
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    expect((failure as Error).message).toContain(`previous_response_id: response '${id}' was cancelled`);
    expect(c.h.anthropic.requests).toHaveLength(0);
  });

  it('is refused once the response failed, naming the response it continued', async () => {
    const first = await c.openai.responses.create({ model: 'gpt-4o-mini', input: 'first', store: true });
    c.h.openai.setNext({ streamErrorAfterFrames: 3 });
    let id: string | undefined;
    await (async () => {
      const stream = await c.openai.responses.create({
        model: 'gpt-4o-mini',
        input: 'second',
        store: true,
        stream: true,
        previous_response_id: first.id,
      });
      for await (const event of stream) if (event.type === 'response.created') id = event.response.id;
    })().catch(() => undefined);
    expect((await c.openai.responses.retrieve(id!)).status).toBe('failed');
    c.h.openai.reset();

    const failure = await refusal(
      c.openai.responses.create({ model: 'gpt-4o-mini', input: 'go on', previous_response_id: id! }),
    );
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    expect((failure as Error).message).toContain(`previous_response_id: response '${id}' failed`);
    expect((failure as Error).message).toContain(first.id);
    expect(c.h.openai.requests).toHaveLength(0);
  });

  it('goes on from a response cut off at the token limit, which is an answer as far as it went', async () => {
    c.h.openai.setNext({ reply: { text: 'one two', finishReason: 'length' } });
    const cut = await c.openai.responses.create({ model: 'gpt-4o-mini', input: 'count', store: true });
    expect(cut.status).toBe('incomplete');
    const next = await c.openai.responses.create({
      model: 'gpt-4o-mini',
      input: 'go on',
      previous_response_id: cut.id,
    });
    expect(next.status).toBe('completed');
  });
});
