import { describe, expect, it } from 'vitest';
import type { TempServers } from '../support/temp-servers.js';
import { responsesTestBed } from '../support/responses-test-bed.js';

const KEY = 'sk-sequence-0123456789';

/** The events of a Responses stream as the client reads them off the wire: name and data. */
async function streamEvents(
  servers: TempServers,
  secret: string,
  model: string,
): Promise<Array<{ event: string; data: Record<string, unknown> }>> {
  const response = await fetch(`${servers.gatewayUrl}/v1/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, input: 'an answer that breaks', stream: true }),
  });
  expect(response.status).toBe(200);
  return (await response.text())
    .split('\n\n')
    .filter((frame) => frame.includes('data: '))
    .map((frame) => ({
      event: /^event: (.*)$/m.exec(frame)?.[1] ?? '',
      data: JSON.parse(/^data: (.*)$/m.exec(frame)![1]!) as Record<string, unknown>,
    }));
}

/**
 * Every event of a Responses stream carries its `sequence_number`, the `error` event that ends a
 * broken one included, next after the last event the client got: from a translated upstream (the
 * gateway numbers the stream) and from a provider's own Responses API (the gateway follows its numbers).
 */
describe('the error event of a broken Responses stream is numbered in the stream', () => {
  const bed = responsesTestBed(KEY);

  for (const model of ['bridged-model', 'native-model']) {
    it(`${model}: the error event comes next in the numbering`, async () => {
      bed.upstream.setNext({ streamErrorAfterFrames: 3 });
      const events = await streamEvents(bed.servers, bed.client.apiKey!, model);
      const last = events.at(-1)!;
      expect(last.event).toBe('error');
      const numbers = events.map((event) => event.data.sequence_number);
      expect(numbers.length).toBeGreaterThan(2);
      expect(numbers).toEqual(numbers.map((_, index) => (numbers[0] as number) + index));
    });
  }
});
