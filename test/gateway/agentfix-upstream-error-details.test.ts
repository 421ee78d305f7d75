import Anthropic from '@anthropic-ai/sdk';
import { beforeEach, describe, expect, it } from 'vitest';
import { ANTHROPIC_UPSTREAM_KEY, harnessWithKey, type GatewayHarness } from './support/harness.js';

/**
 * A provider's `error.details` (Anthropic's `{"error_code": "thread_not_found"}`) is how a client tells
 * one refusal from another; the gateway passes it on in `error.upstream.details` of its 502, its keys
 * redacted like the rest, and leaves out a value that is no object or too long to be one.
 */
describe("the provider's error details", () => {
  const context = harnessWithKey();
  let h: GatewayHarness;
  let client: Anthropic;
  beforeEach(() => {
    h = context.harness;
    h.anthropic.reset();
    client = h.anthropicClient(context.key);
  });

  /** The gateway's answer to a native Messages call the upstream refused with `details`. */
  async function refusedWith(details: unknown): Promise<Record<string, unknown>> {
    h.anthropic.setNext({
      status: 404,
      headers: { 'request-id': 'req_011thread' },
      body: {
        type: 'error',
        error: { type: 'not_found_error', message: 'No thread holds that message', details },
      },
    });
    const error = await client.beta.messages
      .create({
        model: 'claude-opus-4-7',
        max_tokens: 16,
        thread: { type: 'continue', previous_message_id: 'msg_gone' },
        messages: [{ role: 'user', content: 'next' }],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(502);
    return ((error as InstanceType<typeof Anthropic.APIError>).error as any).error.upstream;
  }

  it('are passed on in error.upstream.details on the native Messages path', async () => {
    const upstream = await refusedWith({ error_code: 'thread_not_found' });
    expect(upstream).toEqual({
      status: 404,
      type: 'not_found_error',
      code: null,
      param: null,
      request_id: 'req_011thread',
      details: { error_code: 'thread_not_found' },
    });
    // The native path sent the thread on as it was.
    expect(h.anthropic.lastRequest()!.body.thread).toEqual({ type: 'continue', previous_message_id: 'msg_gone' });
  });

  it('have the upstream key redacted', async () => {
    const upstream = await refusedWith({ error_code: 'x', note: `key ${ANTHROPIC_UPSTREAM_KEY} refused` });
    expect(JSON.stringify(upstream)).not.toContain(ANTHROPIC_UPSTREAM_KEY);
    expect((upstream.details as Record<string, unknown>).error_code).toBe('x');
  });

  it('are left out when they are no object, or too long', async () => {
    expect(await refusedWith('thread_not_found')).not.toHaveProperty('details');
    expect(await refusedWith(['thread_not_found'])).not.toHaveProperty('details');
    expect(await refusedWith({ error_code: 'x', padding: 'p'.repeat(5000) })).not.toHaveProperty('details');
  });
});
