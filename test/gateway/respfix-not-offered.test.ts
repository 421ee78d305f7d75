import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { responsesTestBed } from '../support/responses-test-bed.js';

/**
 * Endpoints of OpenAI's Responses API the gateway does not offer are answered 404 in the shared error
 * shape, naming the endpoint and what to do instead, rather than as a response id on a path that
 * answers other methods (`no route POST /v1/responses/compact; the path answers GET, DELETE`).
 */
describe('Responses endpoints the gateway does not offer', () => {
  const bed = responsesTestBed('sk-respfix-not-offered-0123456789');

  const refusal = (call: Promise<unknown>) =>
    call.then(
      () => undefined,
      (error: unknown) => error as InstanceType<typeof OpenAI.NotFoundError>,
    );

  it('names compact, input_tokens and cancel as not offered', async () => {
    const compact = await refusal(bed.client.responses.compact({ model: 'native-model', input: 'hello' }));
    const count = await refusal(bed.client.responses.inputTokens.count({ model: 'native-model', input: 'hello' }));
    const cancel = await refusal(bed.client.responses.cancel('resp_abc'));
    for (const [error, endpoint] of [
      [compact, 'POST /v1/responses/compact'],
      [count, 'POST /v1/responses/input_tokens'],
      [cancel, 'POST /v1/responses/{id}/cancel'],
    ] as const) {
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      expect(error!.error).toMatchObject({ type: 'not_found_error', code: 404 });
      expect(error!.message).toContain(`${endpoint} is not offered by this gateway: `);
      expect(error!.message).not.toContain('the path answers');
    }
    expect(cancel!.message).toContain('background: true is refused here');
    // Nothing reached the provider.
    expect(bed.upstream.requests).toEqual([]);
  });

  it('still asks for the responses scope first', async () => {
    const response = await fetch(`${bed.servers.gatewayUrl}/v1/responses/compact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(401);
  });
});
