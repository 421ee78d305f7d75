import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postForJson, type UpstreamCall } from '../../src/server/gateway/providers/http-client.js';
import { UpstreamError } from '../../src/server/gateway/providers/upstream-error.js';
import { UpstreamPools } from '../../src/server/gateway/providers/upstream-pools.js';
import { AnswerBudget } from '../../src/server/gateway/providers/upstream-body.js';
import { startLargeAnswerUpstream, type LargeAnswerUpstream } from './upstream-bytes-upstream.js';

const MiB = 1024 * 1024;
/** The budget of these calls: small, so that a few MB show what hundreds do in the gateway's own 512 MiB. */
const BUDGET = 8 * MiB;
/** What the endless answer sends at most, whatever the reader does. */
const SENT_AT_MOST = 64 * MiB;

/**
 * Each answer read whole is bounded, but a few slow ones at once held gigabytes together. Their bytes
 * count against one budget while they arrive: the answer that would pass it is refused as too large
 * (not retried: another try would send as much again), and the others are read as usual.
 */
describe('the budget of answers read whole at once', () => {
  let upstream: LargeAnswerUpstream;
  const pools = new UpstreamPools();
  const budget = new AnswerBudget(BUDGET);

  beforeAll(async () => {
    // `/hold/N`: N MiB held open until released; anything else: an answer that goes on and on.
    upstream = await startLargeAnswerUpstream((request) => {
      const hold = /^\/v1\/hold\/(\d+)$/.exec(request.url ?? '');
      return {
        contentType: 'application/json',
        head: '{"padding":"',
        bytes: hold === null ? SENT_AT_MOST : Number(hold[1]) * MiB,
        tail: '"}',
        hold: hold !== null,
      };
    });
  });
  afterAll(async () => {
    await pools.close();
    await upstream?.close();
  });

  const call = (path: string): UpstreamCall => ({
    pools,
    provider: 'openai',
    baseUrl: upstream.url,
    path,
    headers: {},
    body: { model: 'gpt-4o-mini' },
    signal: new AbortController().signal,
    timeoutMs: 10_000,
    secrets: [],
    answerBudget: budget,
  });

  async function untilHeld(bytes: number): Promise<void> {
    for (const deadline = Date.now() + 5000; budget.used < bytes;) {
      if (Date.now() > deadline) throw new Error(`the budget holds ${budget.used} bytes, not ${bytes}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('refuses the answer that would pass it, without reading it further, and reads the others', async () => {
    const first = postForJson(call('/hold/5'));
    await untilHeld(5 * MiB);

    const sentBefore = upstream.sentBytes;
    const refused = await postForJson(call('/endless')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UpstreamError);
    expect(refused).toMatchObject({
      status: 200,
      retryable: true,
      gatewayBusy: true,
      upstreamType: 'answer_budget_exceeded',
    });
    expect((refused as Error).message).toMatch(
      /^openai upstream answered 200 with a body of more than [\d.]+ MiB, while other answers being read held 5 MiB of the 8 MiB the gateway holds for answers read at once, not read further$/,
    );
    expect(await upstream.cutShort).toBe(true);
    expect(upstream.sentBytes - sentBefore).toBeLessThan(SENT_AT_MOST / 2);

    upstream.release();
    const answer = await first;
    expect((answer.body as { padding: string }).padding.length).toBe(5 * MiB);
    expect(budget.used).toBe(0);
  });

  it('gives the bytes back once an answer is read, so later answers fit again', async () => {
    for (let round = 0; round < 3; round += 1) {
      const answer = postForJson(call('/hold/6'));
      await untilHeld(6 * MiB);
      upstream.release();
      expect(((await answer).body as { padding: string }).padding.length).toBe(6 * MiB);
      expect(budget.used).toBe(0);
    }
  });
});
