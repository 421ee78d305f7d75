import { afterAll, describe, expect, it } from 'vitest';
import { UpstreamPools } from '../../../src/server/gateway/providers/upstream-pools.js';

describe('UpstreamPools.target', () => {
  const pools = new UpstreamPools();
  afterAll(async () => pools.close());

  it("joins a base URL's path, a call's path and the base URL's query", () => {
    expect(pools.target('https://api.openai.com/v1', '/chat/completions')).toEqual({
      origin: 'https://api.openai.com',
      path: '/v1/chat/completions',
    });
    expect(pools.target('http://127.0.0.1:11434/v1/', '/embeddings')).toEqual({
      origin: 'http://127.0.0.1:11434',
      path: '/v1/embeddings',
    });
    expect(pools.target('https://example.test/openai?api-version=1', '/responses')).toEqual({
      origin: 'https://example.test',
      path: '/openai/responses?api-version=1',
    });
  });

  it('tells apart base URLs and paths that would run together in one key', () => {
    expect(pools.target('http://a.test/x', '/y').path).toBe('/x/y');
    expect(pools.target('http://a.test/x/y', '').path).toBe('/x/y');
    expect(pools.target('http://a.test/x', '/z').path).toBe('/x/z');
  });

  it('still answers rightly after more addresses than it keeps', () => {
    for (let i = 0; i < 2500; i += 1) {
      const target = pools.target(`http://host-${i % 1200}.test/v${i}`, `/p${i % 7}`);
      expect(target).toEqual({ origin: `http://host-${i % 1200}.test`, path: `/v${i}/p${i % 7}` });
    }
    expect(pools.target('https://api.openai.com/v1', '/chat/completions').path).toBe('/v1/chat/completions');
  });
});
