import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { withCachingGateway } from './cachectl-gateway.js';

/**
 * Per-request cache controls: a request may refresh or skip the cache, accept only younger answers
 * and keep its own answer for less time, within what its settings allow; unreadable values are 400s.
 */
describe('cache: per-request headers', () => {
  const gateway = withCachingGateway();

  const ask = async (content: string, headers: Record<string, string> = {}): Promise<string | null> =>
    (
      await gateway.h
        .openaiClient(gateway.key)
        .chat.completions.create(
          { model: 'gpt-4o-mini', temperature: 0, messages: [{ role: 'user', content }] },
          { headers },
        )
        .withResponse()
    ).response.headers.get('x-cache-hit');

  const stats = async (): Promise<Record<string, number>> =>
    (await gateway.h.admin('GET', '/internal/cache')).body.stats;

  it('x-gatehouse-cache: refresh calls the provider and keeps the fresh answer', async () => {
    const before = await stats();
    expect(await ask('refresh me')).toBe('false');
    expect(await ask('refresh me', { 'x-gatehouse-cache': 'refresh' })).toBe('false');
    expect(gateway.h.openai.requests).toHaveLength(2);
    expect(await ask('refresh me')).toBe('true');
    expect(gateway.h.openai.requests).toHaveLength(2);
    expect((await stats()).refreshes).toBe(before.refreshes! + 1);
  });

  it('x-gatehouse-cache: off neither reads nor keeps', async () => {
    const before = await stats();
    expect(await ask('off please')).toBe('false');
    expect(await ask('off please', { 'x-gatehouse-cache': 'off' })).toBe('false');
    expect(await ask('not kept', { 'x-gatehouse-cache': 'off' })).toBe('false');
    expect(await ask('not kept')).toBe('false');
    expect(gateway.h.openai.requests).toHaveLength(4);
    expect((await stats()).bypasses).toBe(before.bypasses! + 2);
  });

  it('Cache-Control: max-age accepts only answers younger than it', async () => {
    expect(await ask('aging')).toBe('false');
    await sleep(1_100);
    expect(await ask('aging', { 'cache-control': 'max-age=1' })).toBe('false');
    expect(await ask('aging', { 'cache-control': 'max-age=60' })).toBe('true');
    expect(gateway.h.openai.requests).toHaveLength(2);
  });

  it('x-gatehouse-cache-ttl keeps the answer for less time, never longer than the settings', async () => {
    expect(await ask('short lived', { 'x-gatehouse-cache-ttl': '1' })).toBe('false');
    expect(await ask('short lived')).toBe('true');
    await sleep(1_100);
    expect(await ask('short lived')).toBe('false');
    await gateway.h.admin('PUT', '/internal/cache', { ttl_seconds: 1 });
    expect(await ask('capped', { 'x-gatehouse-cache-ttl': '3600' })).toBe('false');
    await sleep(1_100);
    await gateway.h.admin('PUT', '/internal/cache', { ttl_seconds: 600 });
    expect(await ask('capped')).toBe('false');
  });

  it('a header cannot turn the cache on where the settings turn it off', async () => {
    await gateway.h.admin('PUT', '/internal/cache', { enabled: false });
    expect(await ask('never', { 'cache-control': 'max-age=60', 'x-gatehouse-cache-ttl': '60' })).toBeNull();
    expect(await ask('never', { 'cache-control': 'max-age=60' })).toBeNull();
    expect(gateway.h.openai.requests).toHaveLength(2);
  });

  it.each([
    ['x-gatehouse-cache', 'sometimes'],
    ['x-gatehouse-cache-ttl', 'soon'],
    ['x-gatehouse-cache-ttl', '0'],
    ['cache-control', 'max-age=ten'],
  ])('an unreadable %s (%s) is a 400 naming the header', async (name, value) => {
    const error = await ask('bad header', { [name]: value }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).message).toContain(
      name === 'cache-control' ? 'Cache-Control: max-age' : `header ${name} `,
    );
    const messages = await gateway.h
      .anthropicClient(gateway.key)
      .messages.create(
        { model: 'claude-opus-4-7', max_tokens: 16, messages: [{ role: 'user', content: 'x' }] },
        { headers: { [name]: value } },
      )
      .catch((caught: unknown) => caught);
    expect((messages as { status?: number }).status).toBe(400);
    expect(JSON.stringify((messages as { error?: unknown }).error)).toContain(
      name === 'cache-control' ? 'max-age' : name,
    );
    const embeddings = await gateway.h
      .openaiClient(gateway.key)
      .embeddings.create({ model: 'text-embedding-3-small', input: 'x' }, { headers: { [name]: value } })
      .catch((caught: unknown) => caught);
    expect(embeddings).toBeInstanceOf(OpenAI.BadRequestError);
    expect(gateway.h.openai.requests).toHaveLength(0);
  });
});
