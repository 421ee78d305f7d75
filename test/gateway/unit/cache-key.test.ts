import { describe, expect, it } from 'vitest';
import { cacheKey, canonicalJson } from '../../../src/server/gateway/cache/cache-key.js';

describe('cache key', () => {
  it('is the same for bodies that differ only in key order, at any depth', () => {
    const a = { model: 'm', messages: [{ role: 'user', content: 'x' }], temperature: 0, extra: undefined };
    const b = { temperature: 0, messages: [{ content: 'x', role: 'user' }], model: 'm' };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe('{"messages":[{"content":"x","role":"user"}],"model":"m","temperature":0}');
    expect(cacheKey('team:t', 'chat', a, '')).toBe(cacheKey('team:t', 'chat', b, ''));
  });

  it('differs by scope, endpoint, answer-changing headers, array order and value', () => {
    const body = { input: ['a', 'b'] };
    const base = cacheKey('key:1', 'embeddings', body, '');
    expect(cacheKey('key:2', 'embeddings', body, '')).not.toBe(base);
    expect(cacheKey('key:1', 'chat', body, '')).not.toBe(base);
    expect(cacheKey('key:1', 'embeddings', body, 'beta')).not.toBe(base);
    expect(cacheKey('key:1', 'embeddings', { input: ['b', 'a'] }, '')).not.toBe(base);
    expect(cacheKey('key:1', 'embeddings', { input: ['a', 'b '] }, '')).not.toBe(base);
    expect(base.startsWith('key:1|')).toBe(true);
    expect(base).not.toContain('input');
  });
});
