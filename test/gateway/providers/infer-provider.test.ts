import { describe, expect, it } from 'vitest';
import { inferProvider, supportsEmbeddings } from '../../../src/server/gateway/providers/index.js';

describe('inferProvider', () => {
  it.each([
    ['openai/gpt-4o', 'openai'],
    ['anthropic/claude-3-5-haiku', 'anthropic'],
    ['ollama/llama3.2', 'ollama'],
    ['azure/my-deployment', 'azure'],
    ['gemini/gemini-2.0-flash', 'gemini'],
    ['demo/echo', 'demo'],
    ['gpt-4o-mini', 'openai'],
    ['o1-preview', 'openai'],
    ['o3', 'openai'],
    ['o4-mini', 'openai'],
    ['text-embedding-3-small', 'openai'],
    ['claude-sonnet-4-5', 'anthropic'],
  ])('%s -> %s', (model, provider) => {
    expect(inferProvider(model)).toBe(provider);
  });

  it('lets an explicit prefix win over the family, then falls back to deployments', () => {
    expect(inferProvider('ollama/gpt-oss')).toBe('ollama');
    expect(inferProvider('anthropic/gpt-lookalike')).toBe('anthropic');
    expect(inferProvider('my-local-model', [{ model: 'my-local-model', provider: 'vllm' }])).toBe('vllm');
    expect(inferProvider('meta-llama/Llama-3', [{ model: 'meta-llama/Llama-3', provider: 'vllm' }])).toBe('vllm');
    expect(inferProvider('unknown-model')).toBeUndefined();
  });

  it('knows which providers have embeddings', () => {
    expect(supportsEmbeddings('anthropic')).toBe(false);
    expect(supportsEmbeddings('openai')).toBe(true);
  });
});
