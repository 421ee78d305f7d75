import { describe, expect, it } from 'vitest';
import { keyExample } from '../../src/renderer/src/features/gateway/key-example.js';
import { keyExampleCode } from '../../src/renderer/src/features/gateway/key-example-code.js';

const models = { allowed_models: ['demo/echo', 'demo/embed', 'gpt-4o-mini'], default_embedding_model: null };

describe('the new key’s example', () => {
  it('calls chat with a chat model for a key that may chat', () => {
    expect(keyExample({ scopes: ['chat'], models: null }, models)).toEqual({ endpoint: 'chat', model: 'demo/echo' });
    expect(keyExample({ scopes: ['*'], models: null }, models)).toEqual({ endpoint: 'chat', model: 'demo/echo' });
  });

  it('uses a model on the key’s own allow-list', () => {
    expect(keyExample({ scopes: ['chat'], models: ['gpt-4o-mini'] }, models)).toEqual({
      endpoint: 'chat',
      model: 'gpt-4o-mini',
    });
  });

  it('calls embeddings with an embeddings model for a key that may only embed', () => {
    expect(keyExample({ scopes: ['embeddings'], models: null }, models)).toEqual({
      endpoint: 'embeddings',
      model: 'demo/embed',
    });
    const withDefault = {
      ...models,
      allowed_models: [...models.allowed_models, 'bge-m3'],
      default_embedding_model: 'bge-m3',
    };
    expect(keyExample({ scopes: ['embeddings'], models: null }, withDefault)?.model).toBe('bge-m3');
  });

  it('calls responses for a key with only that scope, and nothing for a key for retrieval only', () => {
    expect(keyExample({ scopes: ['responses'], models: null }, models)?.endpoint).toBe('responses');
    expect(keyExample({ scopes: ['rag:docs'], models: null }, models)).toBeUndefined();
  });

  it('writes each call with the key and model as Python string literals', () => {
    const code = (endpoint: 'chat' | 'responses' | 'embeddings') =>
      keyExampleCode('python', 'http://127.0.0.1:8747', 'gk-abc', { endpoint, model: 'team "a"' });
    expect(code('chat')).toContain('client.chat.completions.create(\n    model="team \\"a\\"",');
    expect(code('responses')).toContain('client.responses.create(model="team \\"a\\"", input="Hello")');
    expect(code('embeddings')).toContain('client.embeddings.create(model="team \\"a\\"", input="Hello")');
    expect(code('chat')).toContain('OpenAI(base_url="http://127.0.0.1:8747/v1", api_key="gk-abc")');
  });
});
