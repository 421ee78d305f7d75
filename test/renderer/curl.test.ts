import { describe, expect, it } from 'vitest';
import { shellQuote, toCurl } from '../../src/renderer/src/lib/curl.js';

describe('toCurl', () => {
  it('builds a replayable command with the key as a variable', () => {
    const command = toCurl({
      baseUrl: 'http://127.0.0.1:8747',
      method: 'POST',
      path: '/v1/chat/completions',
      body: { model: 'demo/echo', messages: [{ role: 'user', content: "it's" }] },
    });
    expect(command).toContain("curl -X POST 'http://127.0.0.1:8747/v1/chat/completions'");
    expect(command).toContain('$GATEHOUSE_API_KEY');
    expect(command).toContain(`-d '{"model":"demo/echo","messages":[{"role":"user","content":"it'\\''s"}]}'`);
  });

  it('quotes anything safely', () => {
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`);
    expect(shellQuote('$(rm -rf /)')).toBe(`'$(rm -rf /)'`);
  });
});
