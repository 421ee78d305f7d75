import type Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

const EMAIL = 'jane.doe@example.com';
const PHONE = '+1 415 555 0132';

/**
 * Parts of a request that the schemas let through without reading them, and that a native upstream
 * receives as sent: they must be scrubbed and checked like every other text. The answers carry such
 * parts with the originals restored, so a client sends them back with its next turn.
 */
describe('PII in the parts a native upstream receives as sent', () => {
  let h: GatewayHarness;
  let openai: OpenAI;
  let anthropic: Anthropic;

  beforeAll(async () => {
    h = await startGatewayHarness({
      pii: { mode: 'mask' },
      content_policy: { blocked_patterns: ['launch\\s+codes'] },
      deployments: [
        {
          id: 'native-responses',
          model: 'resp-native',
          provider: 'openai',
          upstream_model: 'gpt-4.1',
          responses_api: 'native',
        },
      ],
    });
    const models = (await h.admin('GET', '/internal/models')).body.allowed_models;
    expect((await h.admin('PUT', '/internal/models', { allowed_models: [...models, 'resp-native'] })).status).toBe(200);
    const key = (await h.issueKey({ scopes: ['*'] })).key;
    openai = h.openaiClient(key);
    anthropic = h.anthropicClient(key);
  });
  beforeEach(() => {
    h.openai.reset();
    h.anthropic.reset();
  });
  afterAll(() => h.close());

  it('chat: a predicted output and a legacy function call are scrubbed', async () => {
    await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'user', content: 'update the contact' },
        { role: 'assistant', content: null, function_call: { name: 'lookup', arguments: `{"to":"${EMAIL}"}` } },
        { role: 'function', name: 'lookup', content: 'found' },
      ],
      prediction: { type: 'content', content: `contact: ${EMAIL}, ${PHONE}` },
    });
    const sent = h.openai.lastRequest()!;
    expect(sent.rawBody).not.toContain(EMAIL);
    expect(sent.rawBody).not.toContain(PHONE);
    expect(sent.body.prediction.content).toBe('contact: [EMAIL_1], [PHONE_1]');
    expect(sent.body.messages[1].function_call.arguments).toBe('{"to":"[EMAIL_1]"}');
  });

  it('chat: the content policy reads a predicted output', async () => {
    const error = await openai.chat.completions
      .create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'repeat the file' }],
        prediction: { type: 'content', content: [{ type: 'text', text: 'the launch codes are 0000' }] },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain('matched in prediction.content[0].text');
    expect(h.openai.requests).toHaveLength(0);
  });

  it("chat: a file part's name is scrubbed and read by the content policy; its data is not", async () => {
    const file = { filename: `${EMAIL} invoice.pdf`, file_data: 'data:application/pdf;base64,JVBERi0=' };
    await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'summarise' },
            { type: 'file', file },
          ],
        },
      ],
    });
    const sent = h.openai.lastRequest()!;
    expect(sent.rawBody).not.toContain(EMAIL);
    expect(sent.body.messages[0].content[1]).toEqual({
      type: 'file',
      file: { filename: '[EMAIL_1] invoice.pdf', file_data: file.file_data },
    });
    const error = await openai.chat.completions
      .create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: [{ type: 'file', file: { ...file, filename: 'launch codes.pdf' } }] }],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain('matched in messages[0].content[0].file.filename');
    expect(h.openai.requests).toHaveLength(1);
  });

  it('Responses native: custom tool calls and outputs, prompt variables and file names are scrubbed; ids and file addresses are not', async () => {
    await openai.responses.create({
      model: 'resp-native',
      prompt: { id: 'pmpt_1', variables: { customer: EMAIL } },
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'send it' },
            { type: 'input_file', filename: `${EMAIL} invoice.pdf`, file_data: 'data:application/pdf;base64,JVBERi0=' },
            { type: 'input_file', file_url: 'https://203.0.113.7/terms.pdf' },
          ],
        },
        { type: 'custom_tool_call', call_id: 'call_1', name: 'mailer', input: `to ${EMAIL}` },
        { type: 'custom_tool_call_output', call_id: 'call_1', output: `delivered to ${EMAIL}` },
      ],
    });
    const sent = h.openai.lastRequest()!;
    expect(sent.path).toBe('/v1/responses');
    expect(sent.rawBody).not.toContain(EMAIL);
    expect(sent.body.prompt).toEqual({ id: 'pmpt_1', variables: { customer: '[EMAIL_1]' } });
    expect(sent.body.input[0].content[1]).toEqual({
      type: 'input_file',
      filename: '[EMAIL_1] invoice.pdf',
      file_data: 'data:application/pdf;base64,JVBERi0=',
    });
    // An address the provider fetches stays as it is, though it holds an IP address.
    expect(sent.body.input[0].content[2]).toEqual({ type: 'input_file', file_url: 'https://203.0.113.7/terms.pdf' });
    expect(sent.body.input[1]).toEqual({
      type: 'custom_tool_call',
      call_id: 'call_1',
      name: 'mailer',
      input: 'to [EMAIL_1]',
    });
    expect(sent.body.input[2].output).toBe('delivered to [EMAIL_1]');
  });

  it('Messages: server tool calls, MCP results and citations sent back are scrubbed; ids and signatures are not', async () => {
    await anthropic.messages.create({
      model: 'claude-opus-4-7',
      max_tokens: 50,
      messages: [
        { role: 'user', content: 'find her' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'search for [EMAIL_9]', signature: 'c2ln' },
            { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: EMAIL } },
            {
              type: 'text',
              text: 'Found.',
              citations: [
                {
                  type: 'char_location',
                  cited_text: `call ${PHONE}`,
                  document_index: 0,
                  document_title: null,
                  start_char_index: 0,
                  end_char_index: 5,
                },
              ],
            },
            {
              type: 'mcp_tool_result',
              tool_use_id: 'mcptoolu_1',
              is_error: false,
              content: [{ type: 'text', text: `owner ${EMAIL}` }],
            },
          ] as unknown as Anthropic.ContentBlockParam[],
        },
        { role: 'user', content: 'thanks' },
      ],
    });
    const sent = h.anthropic.lastRequest()!;
    expect(sent.rawBody).not.toContain(EMAIL);
    expect(sent.rawBody).not.toContain(PHONE);
    const [thinking, search, text, mcp] = sent.body.messages[1].content;
    expect(thinking).toEqual({ type: 'thinking', thinking: 'search for [EMAIL_9]', signature: 'c2ln' });
    expect(search).toEqual({
      type: 'server_tool_use',
      id: 'srvtoolu_1',
      name: 'web_search',
      input: { query: '[EMAIL_1]' },
    });
    expect(text.citations[0].cited_text).toBe('call [PHONE_1]');
    expect(mcp.tool_use_id).toBe('mcptoolu_1');
    expect(mcp.content[0].text).toBe('owner [EMAIL_1]');
  });
});
