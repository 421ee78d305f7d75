import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { withSdkClients, type HarnessClients } from './support/harness.js';

/**
 * A `json_schema` answer format without its schema (or its name) became JSON of any shape, on a chat
 * upstream `json_object`, on Claude a JSON tool with an empty schema, while the answer echoed
 * `json_schema`. OpenAI refuses it naming the missing field; so does the gateway, before any upstream
 * call, on the Responses and chat completions endpoints alike.
 */
describe('a json_schema answer format without its schema or name', () => {
  let c: HarnessClients;
  withSdkClients({}, ['chat', 'responses'], (clients) => (c = clients));

  const schema = { type: 'object', properties: { city: { type: 'string' } } };
  const refusal = (promise: Promise<unknown>): Promise<unknown> => promise.catch((error: unknown) => error);
  const expectRefused = async (promise: Promise<unknown>, message: string): Promise<void> => {
    const failure = await refusal(promise);
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    expect((failure as Error).message).toContain(message);
  };
  const noUpstreamCall = (): void => {
    expect(c.h.openai.requests).toHaveLength(0);
    expect(c.h.anthropic.requests).toHaveLength(0);
  };

  it('Responses: in the chat layout (json_schema inside text.format) is refused naming text.format.schema', async () => {
    for (const model of ['claude-opus-4-7', 'gpt-4o-mini'])
      await expectRefused(
        c.openai.responses.create({
          model,
          input: 'Where is Ada?',
          text: { format: { type: 'json_schema', json_schema: { name: 'a', schema } } as never },
        }),
        'text.format.schema: is required',
      );
    noUpstreamCall();
  });

  it('Responses: without schema, or without name, is refused naming the field', async () => {
    for (const model of ['claude-opus-4-7', 'gpt-4o-mini']) {
      await expectRefused(
        c.openai.responses.create({
          model,
          input: 'Where is Ada?',
          text: { format: { type: 'json_schema', name: 'a' } as never },
        }),
        'text.format.schema: is required',
      );
      await expectRefused(
        c.openai.responses.create({
          model,
          input: 'Where is Ada?',
          text: { format: { type: 'json_schema', schema } as never },
        }),
        'text.format.name: is required',
      );
      await expectRefused(
        c.openai.responses.create({
          model,
          input: 'Where is Ada?',
          text: { format: { type: 'json_schema', name: 'a city', schema } },
        }),
        'text.format.name: ',
      );
    }
    noUpstreamCall();
  });

  it('chat completions to Claude: without json_schema, its schema or its name, is refused naming the field', async () => {
    const chat = (responseFormat: object) =>
      c.openai.chat.completions.create({
        model: 'claude-opus-4-7',
        messages: [{ role: 'user', content: 'Where is Ada?' }],
        response_format: responseFormat as never,
      });
    await expectRefused(chat({ type: 'json_schema' }), 'response_format.json_schema: is required');
    await expectRefused(
      chat({ type: 'json_schema', json_schema: { name: 'a' } }),
      'response_format.json_schema.schema: is required',
    );
    await expectRefused(
      chat({ type: 'json_schema', json_schema: { schema } }),
      'response_format.json_schema.name: is required',
    );
    noUpstreamCall();
  });

  it('with both is sent on, as before', async () => {
    const answered = await c.openai.responses.create({
      model: 'gpt-4o-mini',
      input: 'Where is Ada?',
      text: { format: { type: 'json_schema', name: 'city', schema } },
    });
    expect(answered.status).toBe('completed');
    expect(c.h.openai.lastRequest()!.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'city', schema },
    });
  });
});
