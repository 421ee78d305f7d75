import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateResponsesRequest } from '../../src/server/gateway/formats/index.js';
import { anthropicErrorStatus } from '../../src/server/gateway/formats/messages/messages-errors.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

// A client's type, role or tool type named like an Object.prototype member must be looked up as
// the unknown string it is: a 400 naming the field and the allowed values, never a 500.

const NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];

describe('type names like Object.prototype members', () => {
  let harness: GatewayHarness;
  let key: string;

  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${harness.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as { error?: { message: string } };
    return { status: response.status, message: json.error?.message ?? '' };
  };
  const messages = (content: unknown, extra: object = {}) =>
    post('/v1/messages', { model: 'demo/echo', max_tokens: 16, messages: [{ role: 'user', content }], ...extra });
  const chat = (message: unknown, extra: object = {}) =>
    post('/v1/chat/completions', { model: 'demo/echo', messages: [message], ...extra });

  beforeAll(async () => {
    harness = await startGatewayHarness();
    key = (await harness.issueKey({ scopes: ['*'] })).key;
  });
  afterAll(async () => harness.close());

  it.each(NAMES)('Messages content block type %s is a 400 naming the field and the allowed types', async (name) => {
    expect(await messages([{ type: name, text: 'x' }])).toEqual({
      status: 400,
      message: `messages[0].content[0].type must be one of 'text', 'image', 'document', 'tool_use', 'tool_result', 'thinking', 'redacted_thinking' for this model, got '${name}' (${name} blocks are only available on Anthropic models)`,
    });
  });

  it.each(NAMES)('Messages tool_result content type %s is a 400 naming the field', async (name) => {
    expect(await messages([{ type: 'tool_result', tool_use_id: 't1', content: [{ type: name }] }])).toEqual({
      status: 400,
      message: `messages[0].content[0].content[0].type must be one of 'text', 'image' for this model, got '${name}' (${name} blocks are only available on Anthropic models)`,
    });
  });

  it.each(NAMES)('Messages roles, image sources, tool choices and tools named %s are 400s', async (name) => {
    const role = await post('/v1/messages', {
      model: 'demo/echo',
      max_tokens: 16,
      messages: [{ role: name, content: 'x' }],
    });
    expect(role).toEqual({
      status: 400,
      message: `messages[0].role must be one of 'user', 'assistant', got '${name}'`,
    });
    expect(await messages([{ type: 'image', source: { type: name } }])).toEqual({
      status: 400,
      message: `messages[0].content[0].source.type must be one of 'base64', 'url', 'file', got '${name}'`,
    });
    expect(await messages('x', { tool_choice: { type: name } })).toEqual({
      status: 400,
      message: `tool_choice.type must be one of 'auto', 'any', 'none', 'tool', got '${name}'`,
    });
    expect((await messages('x', { tools: [{ type: name, name: 'n' }] })).status).toBe(400);
  });

  it.each(NAMES)('chat content part types, roles and tool types named %s are 400s', async (name) => {
    expect(await chat({ role: 'user', content: [{ type: name, text: 'x' }] })).toEqual({
      status: 400,
      message: `messages[0].content[0].type must be one of 'text', 'image_url', 'input_audio', 'file', got '${name}'`,
    });
    expect(await chat({ role: 'assistant', content: [{ type: name, text: 'x' }] })).toEqual({
      status: 400,
      message: `messages[0].content[0].type must be one of 'text', 'refusal', got '${name}'`,
    });
    expect(await chat({ role: name, content: 'x' })).toEqual({
      status: 400,
      message: `messages[0].role must be one of 'system', 'developer', 'user', 'assistant', 'tool', 'function', got '${name}'`,
    });
    expect(await chat({ role: 'user', content: 'x' }, { tools: [{ type: name, function: { name: 'f' } }] })).toEqual({
      status: 400,
      message: `tools[0].type must be one of 'function', 'custom', got '${name}'`,
    });
    expect((await chat({ role: 'user', content: 'x' }, { response_format: { type: name } })).status).toBe(400);
  });

  it.each(NAMES)('Responses item and part types named %s validate as unknown types', (name) => {
    expect(() => validateResponsesRequest({ model: 'm', input: [{ type: name }] })).not.toThrow();
    const part = validateResponsesRequest({ model: 'm', input: [{ role: 'user', content: [{ type: name }] }] });
    expect(part.ok).toBe(true);
  });

  it.each(NAMES)('an upstream error type %s maps to 500, not to a prototype member', (name) => {
    expect(anthropicErrorStatus(name)).toBe(500);
  });
});
