import { describe, expect, it } from 'vitest';
import {
  validateChatRequest,
  validateEmbeddingsRequest,
  validateMessagesRequest,
} from '../../../src/server/gateway/formats/index.js';
import { validate } from '../../../src/server/gateway/formats/validation.js';
import { deploymentsUpdateSchema } from '../../../src/shared/gateway-api.js';

function chatError(body: unknown): string {
  const result = validateChatRequest(body);
  if (result.ok) throw new Error('expected a validation error');
  return result.message;
}

function messagesError(body: unknown): string {
  const result = validateMessagesRequest(body);
  if (result.ok) throw new Error('expected a validation error');
  return result.message;
}

const user = [{ role: 'user', content: 'hi' }];

describe('chat completions validation', () => {
  it('accepts a minimal request and keeps unknown fields', () => {
    const result = validateChatRequest({
      model: 'gpt-4o',
      messages: user,
      seed: 7,
      response_format: { type: 'json_object' },
    });
    expect(result.ok && result.value.seed).toBe(7);
  });

  it('names the field and the value of a range violation', () => {
    expect(chatError({ model: 'm', messages: user, temperature: 3.5 })).toBe(
      'temperature must be between 0 and 2, got 3.5',
    );
    expect(chatError({ model: 'm', messages: user, top_p: -1 })).toBe('top_p must be between 0 and 1, got -1');
  });

  it('reports required fields', () => {
    expect(chatError({ model: 'm' })).toBe('messages is required');
    expect(chatError({ messages: user })).toBe('model is required');
    expect(chatError({ model: 'm', messages: [] })).toBe('messages must contain at least 1 item');
  });

  it('reports wrong types and integers', () => {
    expect(chatError({ model: 'm', messages: user, stream: 'yes' })).toBe("stream must be a boolean, got 'yes'");
    expect(chatError({ model: 'm', messages: user, max_tokens: 1.5 })).toBe('max_tokens must be an integer, got 1.5');
    expect(chatError({ model: 'm', messages: user, max_tokens: 0 })).toBe('max_tokens must be at least 1, got 0');
    expect(chatError('nope')).toBe("request body must be an object, got 'nope'");
  });

  it('names nested fields and unknown roles', () => {
    expect(chatError({ model: 'm', messages: [{ role: 'robot', content: 'x' }] })).toBe(
      "messages[0].role must be one of 'system', 'developer', 'user', 'assistant', 'tool', 'function', got 'robot'",
    );
    expect(chatError({ model: 'm', messages: [{ role: 'tool', content: 'x' }] })).toBe(
      'messages[0].tool_call_id is required',
    );
    expect(
      chatError({ model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }] }),
    ).toBe('messages[0].content[0].image_url.url is required');
  });

  it('names the missing field of an object tool_choice, and a string that is none of the choices', () => {
    const hi = [{ role: 'user', content: 'hi' }];
    expect(chatError({ model: 'm', messages: hi, tool_choice: { type: 'function' } })).toBe(
      'tool_choice.function is required',
    );
    expect(chatError({ model: 'm', messages: hi, tool_choice: 'sometimes' })).toBe(
      "tool_choice must be one of 'none', 'auto', 'required', got 'sometimes'",
    );
  });

  it('accepts tools, tool_choice, tool calls and null optional fields', () => {
    const result = validateChatRequest({
      model: 'm',
      messages: [
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'w', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      ],
      tools: [{ type: 'function', function: { name: 'w', parameters: { type: 'object' } } }],
      tool_choice: { type: 'function', function: { name: 'w' } },
      temperature: null,
    });
    expect(result.ok).toBe(true);
  });
});

describe('Messages validation', () => {
  const base = { model: 'claude-x', max_tokens: 100, messages: user };

  it('accepts a minimal request, unknown block types and server tools', () => {
    const result = validateMessagesRequest({
      ...base,
      messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'text', data: 'x' } }] }],
      tools: [{ type: 'web_search_20250305', name: 'web_search' }],
      thinking: { type: 'enabled', budget_tokens: 1024 },
    });
    expect(result.ok).toBe(true);
  });

  it('requires max_tokens and names ranges', () => {
    expect(messagesError({ model: 'c', messages: user })).toBe('max_tokens is required');
    // The gateway's range on every endpoint (0..2); the Anthropic provider clamps to Anthropic's 0..1.
    expect(validateMessagesRequest({ ...base, temperature: 1.5 }).ok).toBe(true);
    expect(messagesError({ ...base, temperature: 2.5 })).toBe('temperature must be between 0 and 2, got 2.5');
  });

  it('checks known blocks field by field', () => {
    expect(messagesError({ ...base, messages: [{ role: 'user', content: [{ type: 'text' }] }] })).toBe(
      'messages[0].content[0].text is required',
    );
    expect(
      messagesError({
        ...base,
        messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'n' }] }],
      }),
    ).toBe('messages[0].content[0].input is required');
    expect(messagesError({ ...base, messages: [{ role: 'system', content: 'x' }] })).toBe(
      "messages[0].role must be one of 'user', 'assistant', got 'system'",
    );
    expect(messagesError({ ...base, tools: [{ name: 'w' }] })).toBe('tools[0].input_schema is required');
  });
});

describe('embeddings validation', () => {
  it('accepts strings, arrays and token arrays', () => {
    expect(validateEmbeddingsRequest({ input: 'x' }).ok).toBe(true);
    expect(
      validateEmbeddingsRequest({ model: 'e', input: ['a', 'b'], encoding_format: 'base64', dimensions: 4 }).ok,
    ).toBe(true);
    expect(validateEmbeddingsRequest({ input: [1, 2, 3] }).ok).toBe(true);
  });

  it('rejects a missing input and a bad encoding', () => {
    const missing = validateEmbeddingsRequest({ model: 'e' });
    expect(!missing.ok && missing.message).toBe('input is required');
    const encoding = validateEmbeddingsRequest({ input: 'x', encoding_format: 'hex' });
    expect(!encoding.ok && encoding.message).toBe("encoding_format must be one of 'float', 'base64', got 'hex'");
  });
});

describe('secrets in validation messages', () => {
  it('never echoes the value of a credential field (a provider key pasted into api_key_env)', () => {
    const secret = 'sk-proj-AbCdEf0123456789SECRETSECRETSECRET';
    const result = validate(deploymentsUpdateSchema, {
      deployments: [{ model: 'gpt-4o', provider: 'openai', api_key_env: secret }],
    });
    expect(result.ok).toBe(false);
    const message = result.ok ? '' : result.message;
    expect(message).toMatch(/^deployments\[0\]\.api_key_env must be an environment variable name/);
    expect(message).not.toContain('sk-proj');
    expect(message).not.toContain('got');
    // One that passes for a name (letters, digits and underscores) is refused too, still unnamed.
    const named = 'sk_live_51HabcDEF123ghiJKL456';
    const pasted = validate(deploymentsUpdateSchema, {
      deployments: [{ model: 'gpt-4o', provider: 'openai', api_key_env: named }],
    });
    const refusal = pasted.ok ? '' : pasted.message;
    expect(refusal).toContain('api_key_env looks like a key rather than the name of a variable (not shown)');
    expect(refusal).not.toContain(named);
  });

  it('still names the value of ordinary fields whose names merely contain "token"', () => {
    const result = validateChatRequest({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: -3,
    });
    expect(result.ok ? '' : result.message).toContain('got -3');
  });
});
