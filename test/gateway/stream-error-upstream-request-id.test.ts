import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { withSdkClients, type HarnessClients } from './support/harness.js';

/** The error object of what the SDK raised (an APIError of `sdk`) for a stream that failed after it started. */
async function raised(
  sdk: typeof Anthropic | typeof OpenAI,
  consume: () => Promise<unknown>,
): Promise<{ upstream?: Record<string, unknown> }> {
  const error = await consume().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(sdk.APIError);
  const body = (error as { error?: { upstream?: unknown; error?: { upstream?: unknown } } }).error;
  // The openai SDK hands over the frame's `error`; Anthropic's keeps its envelope around it.
  return (body?.error ?? body) as { upstream?: Record<string, unknown> };
}

const drain = async (stream: AsyncIterable<unknown>): Promise<void> => {
  for await (const _ of stream) void _;
};

/**
 * A stream that fails after its 200 (an error event, a cut) ends with the format's error frame; its
 * `error.upstream.request_id` is the provider's id from that 200's headers, which its support asks for.
 */
describe('the error frame of a stream that failed after it started', () => {
  let c: HarnessClients;
  withSdkClients({}, ['*'], (clients) => (c = clients));
  const prompt = [{ role: 'user' as const, content: 'a b c d e f' }];

  it('carries the request id of an Anthropic error event on Messages', async () => {
    c.h.anthropic.setNext({
      headers: { 'request-id': 'req_ant_overload1' },
      streamErrorAfterFrames: 3,
      error: { type: 'overloaded_error', message: 'overloaded midway' },
    });
    const error = await raised(Anthropic, () =>
      c.anthropic.messages.stream({ model: 'claude-opus-4-7', max_tokens: 64, messages: prompt }).finalMessage(),
    );
    expect(error.upstream).toMatchObject({ status: 200, type: 'overloaded_error', request_id: 'req_ant_overload1' });
  });

  it('carries the request id of a cut Anthropic stream on Messages', async () => {
    c.h.anthropic.setNext({ headers: { 'request-id': 'req_ant_cut1' }, dropAfterFrames: 3 });
    const error = await raised(Anthropic, () =>
      c.anthropic.messages.stream({ model: 'claude-opus-4-7', max_tokens: 64, messages: prompt }).finalMessage(),
    );
    expect(error.upstream).toMatchObject({ request_id: 'req_ant_cut1' });
  });

  it('carries the request id of an OpenAI error chunk and of a cut stream on chat completions', async () => {
    c.h.openai.setNext({ headers: { 'x-request-id': 'req_oai_error1' }, streamErrorAfterFrames: 2 });
    const failed = await raised(OpenAI, async () =>
      drain(await c.openai.chat.completions.create({ model: 'gpt-4o-mini', stream: true, messages: prompt })),
    );
    expect(failed.upstream).toMatchObject({ request_id: 'req_oai_error1' });

    c.h.openai.setNext({ headers: { 'x-request-id': 'req_oai_cut1' }, dropAfterFrames: 3 });
    const cut = await raised(OpenAI, async () =>
      drain(await c.openai.chat.completions.create({ model: 'gpt-4o-mini', stream: true, messages: prompt })),
    );
    expect(cut.upstream).toMatchObject({ request_id: 'req_oai_cut1' });
  });

  it('carries the request id on chat completions translated to Claude', async () => {
    c.h.anthropic.setNext({
      headers: { 'request-id': 'req_ant_translated1' },
      streamErrorAfterFrames: 4,
      error: { type: 'overloaded_error', message: 'overloaded midway' },
    });
    const error = await raised(OpenAI, async () =>
      drain(await c.openai.chat.completions.create({ model: 'claude-opus-4-7', stream: true, messages: prompt })),
    );
    expect(error.upstream).toMatchObject({ type: 'overloaded_error', request_id: 'req_ant_translated1' });
  });

  it('carries the upstream detail with its request id on Responses', async () => {
    c.h.anthropic.setNext({
      headers: { 'request-id': 'req_ant_responses1' },
      streamErrorAfterFrames: 4,
      error: { type: 'overloaded_error', message: 'overloaded midway' },
    });
    const error = await raised(OpenAI, async () =>
      drain(await c.openai.responses.create({ model: 'claude-opus-4-7', stream: true, input: 'a b c d e f' })),
    );
    expect(error.upstream).toMatchObject({ status: 200, type: 'overloaded_error', request_id: 'req_ant_responses1' });
  });

  it("carries the request id of a provider's own Responses stream that failed", async () => {
    c.h.openai.setNext({ headers: { 'x-request-id': 'req_oai_responses1' }, streamErrorAfterFrames: 2 });
    const error = await raised(OpenAI, async () =>
      drain(await c.openai.responses.create({ model: 'gpt-4o-mini', stream: true, input: 'a b c d e f' })),
    );
    expect(error.upstream).toMatchObject({ request_id: 'req_oai_responses1' });
  });

  it('leaves request_id null where the provider named no id', async () => {
    c.h.anthropic.setNext({ streamErrorAfterFrames: 3 });
    const error = await raised(Anthropic, () =>
      c.anthropic.messages.stream({ model: 'claude-opus-4-7', max_tokens: 64, messages: prompt }).finalMessage(),
    );
    expect(error.upstream).toMatchObject({ type: 'overloaded_error', request_id: null });
  });
});
