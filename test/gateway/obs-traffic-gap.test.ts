import { describe, expect, it } from 'vitest';
import { TEST_MASTER_KEY } from '../support/temp-servers.js';
import { startGatewayHarness } from './support/harness.js';

/**
 * A client that resumes traffic after more requests than the buffer holds is told how many it
 * missed: `missed` in the poll's answer, an `event: gap` before the first event on a resumed stream.
 */
describe('traffic the buffer dropped before a client resumed', () => {
  it('is counted in the poll and announced on the stream', async () => {
    const h = await startGatewayHarness({ gateway: { max_retries: 0, retry_backoff_ms: 10, traffic_buffer: 10 } });
    try {
      const { key } = await h.issueKey({ scopes: ['chat'] });
      const cursor = (await h.admin('GET', '/internal/traffic?limit=1')).body.last_seq as number;
      for (let i = 0; i < 25; i += 1)
        await h
          .openaiClient(key)
          .chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: `${i}` }] });

      const page = (await h.admin('GET', `/internal/traffic?after=${cursor}&limit=100&bodies=false`)).body;
      expect(page.data).toHaveLength(10);
      expect(page.missed).toBe(15);
      expect(page.data.at(-1).seq).toBe(cursor + 16);
      // Caught up from there: nothing missed.
      const next = (await h.admin('GET', `/internal/traffic?after=${page.data.at(-1).seq}&limit=3`)).body;
      expect(next.missed).toBe(0);
      // A cursor from before a restart counts only this process's requests.
      expect((await h.admin('GET', '/internal/traffic?after=1&limit=1')).body.missed).toBe(15);
      expect((await h.admin('GET', '/internal/traffic?limit=5')).body.missed).toBe(0);

      const abort = new AbortController();
      const stream = await fetch(`${h.url}/internal/traffic/stream`, {
        headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'last-event-id': String(cursor) },
        signal: abort.signal,
      });
      const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      while ((text.match(/^event: traffic$/gm) ?? []).length < 10) text += (await reader.read()).value ?? '';
      abort.abort();
      // Invalidations (usage rows written) may come between; the order of the rest is the point.
      const events = [...text.matchAll(/^event: (gap|traffic)$/gm)].map((match) => match[1]);
      expect(events).toEqual(['gap', ...Array<string>(10).fill('traffic')]);
      const gap = JSON.parse(text.match(/^event: gap\ndata: (.*)$/m)![1]!);
      expect(gap).toEqual({ after: cursor, next_seq: cursor + 16, missed: 15 });
    } finally {
      await h.close();
    }
  });
});
