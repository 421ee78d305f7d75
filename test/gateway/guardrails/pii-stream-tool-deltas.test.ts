import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../../support/temp-servers.js';
import { startFrameServer, type FrameServer } from '../../support/upstreams/index.js';

const EMAIL = 'jane.doe@example.com';
// The client's request: its e-mail address becomes [EMAIL_1].
const PROMPT = `Mail the invoice to ${EMAIL}.`;
// What the model writes as a custom tool's input, a call's arguments or interpreter code.
const INPUT = 'to: [EMAIL_1]';
const RESTORED = `to: ${EMAIL}`;

/** Delta events of the native Responses stream whose text the client reads as it comes. */
const DELTAS = [
  { family: 'response.custom_tool_call_input', item: { type: 'custom_tool_call', call_id: 'c1', name: 'mailer' } },
  { family: 'response.mcp_call_arguments', item: { type: 'mcp_call', name: 'send', server_label: 'mail' } },
  { family: 'response.code_interpreter_call_code', item: { type: 'code_interpreter_call', container_id: 'cntr' } },
] as const;

/** The stream of one tool-like output item whose text arrives in `pieces`. */
function framesOf(kind: (typeof DELTAS)[number], pieces: string[]): string[] {
  let seq = 0;
  const ev = (type: string, data: object) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`;
  const response = (status: string, output: object[]) => ({
    id: 'resp_1',
    object: 'response',
    created_at: 1,
    status,
    model: 'gpt-4.1',
    output,
    usage: status === 'completed' ? { input_tokens: 5, output_tokens: 7, total_tokens: 12 } : null,
  });
  const item = { id: 'it_1', status: 'completed', ...kind.item };
  return [
    ev('response.created', { response: response('in_progress', []) }),
    ev('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress' } }),
    ...pieces.map((delta) => ev(`${kind.family}.delta`, { item_id: 'it_1', output_index: 0, delta })),
    ev(`${kind.family}.done`, { item_id: 'it_1', output_index: 0 }),
    ev('response.output_item.done', { output_index: 0, item }),
    ev('response.completed', { response: response('completed', [item]) }),
  ];
}

/** A chat stream calling a function the legacy way (`functions`), its arguments in `pieces`. */
function legacyCallFrames(pieces: string[]): string[] {
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return [
    chunk({ role: 'assistant', content: null, function_call: { name: 'mailer', arguments: '' } }),
    ...pieces.map((piece) => chunk({ function_call: { arguments: piece } })),
    chunk({}, 'function_call'),
    'data: [DONE]\n\n',
  ];
} // prettier-ignore

/**
 * Streams whose tool-like output (a native Responses upstream's custom tool input, MCP arguments and
 * interpreter code; a chat legacy function call) carries a placeholder cut between two deltas: the
 * client reads the original, whole.
 */
describe('PII restore in streamed tool deltas', () => {
  let frames: FrameServer;
  let servers: TempServers;
  let openai: OpenAI;

  beforeAll(async () => {
    frames = await startFrameServer();
    servers = await startTempServers({
      llm: { allowed_models: ['split-responses', 'split-chat'] },
      gateway: { max_retries: 0 },
      pii: { mode: 'mask' },
      deployments: [
        {
          id: 'responses',
          model: 'split-responses',
          provider: 'openai',
          upstream_model: 'gpt-4.1',
          responses_api: 'native',
          base_url: `${frames.url}/v1`,
          api_key: 'sk-frames-0123456789',
        },
        {
          id: 'chat',
          model: 'split-chat',
          provider: 'openai',
          upstream_model: 'gpt-4o-mini',
          base_url: `${frames.url}/v1`,
          api_key: 'sk-frames-0123456789',
        },
      ],
    });
    const created = await fetch(`${servers.gatewayUrl}/internal/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['chat', 'responses'] }),
    });
    const key = ((await created.json()) as { key: string }).key;
    openai = new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });
  });
  afterAll(async () => {
    await servers.stop();
    await frames.close();
  });

  for (const kind of DELTAS) {
    it(`${kind.family}.delta split at every position`, async () => {
      for (let at = 0; at <= INPUT.length; at += 1) {
        frames.serveFrames(framesOf(kind, [INPUT.slice(0, at), INPUT.slice(at)]));
        const stream = await openai.responses.create({ model: 'split-responses', input: PROMPT, stream: true });
        let text = '';
        const numbers: number[] = [];
        for await (const event of stream) {
          numbers.push(event.sequence_number);
          if (event.type === `${kind.family}.delta`) text += (event as { delta: string }).delta;
        }
        expect(text, `split after ${at}`).toBe(RESTORED);
        expect(new Set(numbers).size).toBe(numbers.length);
      }
    });
  }

  it('chat: the arguments of a legacy function call split at every position', async () => {
    for (let at = 0; at <= INPUT.length; at += 1) {
      frames.serveFrames(legacyCallFrames([INPUT.slice(0, at), INPUT.slice(at)]));
      const stream = await openai.chat.completions.create({
        model: 'split-chat',
        stream: true,
        messages: [{ role: 'user', content: PROMPT }],
        functions: [{ name: 'mailer', parameters: { type: 'object' } }],
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.function_call?.arguments ?? '';
      expect(text, `split after ${at}`).toBe(RESTORED);
    }
  });
});
