import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * An upstream asking for an absurd wait (`retry-after-ms: 1e300`) is passed on as one: the gateway's
 * `Retry-After` and `retry-after-ms` stay whole numbers of digits, as HTTP's delay-seconds must be,
 * never JavaScript's exponent notation (`1e+297`), which strict clients cannot read.
 */
describe('a huge wait asked by an upstream', () => {
  let h: GatewayHarness;
  let key: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    key = (await h.issueKey()).key;
  });
  afterAll(async () => h.close());

  const cases: Array<Record<string, string>> = [
    { 'retry-after-ms': '1e300' },
    { 'retry-after': '1e300' },
    { 'retry-after-ms': '123456789012345678901234567890' },
  ];
  for (const headers of cases) {
    it(`is answered in whole digits for ${JSON.stringify(headers)}`, async () => {
      h.openai.setNext({ status: 429, headers });
      const answer = await fetch(`${h.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] }),
      });
      expect(answer.status).toBe(502);
      expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(answer.headers.get('retry-after-ms')).toMatch(/^\d+$/);
      expect(Number(answer.headers.get('retry-after-ms'))).toBeGreaterThan(1e12);
    });
  }
});
