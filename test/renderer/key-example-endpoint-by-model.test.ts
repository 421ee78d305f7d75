import { describe, expect, it } from 'vitest';
import { keyExample } from '../../src/renderer/src/features/gateway/key-example.js';

const models = { allowed_models: ['gpt-4o-mini', 'text-embedding-3-small'], default_embedding_model: null };

describe('the new key’s example, when its models decide the call', () => {
  it('embeds with a key that may chat and embed but only use an embeddings model', () => {
    expect(keyExample({ scopes: ['chat', 'embeddings'], models: ['text-embedding-3-small'] }, models)).toEqual({
      endpoint: 'embeddings',
      model: 'text-embedding-3-small',
    });
    expect(keyExample({ scopes: ['*'], models: ['text-embedding-3-small'] }, models)?.endpoint).toBe('embeddings');
  });

  it('still chats when the key may use a chat model too', () => {
    expect(
      keyExample({ scopes: ['chat', 'embeddings'], models: ['text-embedding-3-small', 'gpt-4o-mini'] }, models),
    ).toEqual({ endpoint: 'chat', model: 'gpt-4o-mini' });
  });

  it('keeps the one endpoint the key may call when no model suits it', () => {
    expect(keyExample({ scopes: ['chat'], models: ['text-embedding-3-small'] }, models)).toEqual({
      endpoint: 'chat',
      model: 'text-embedding-3-small',
    });
  });
});
