import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../../support/temp-servers.js';
import { startFrameServer, type FrameServer } from '../../support/upstreams/index.js';

const EMAIL = 'jane.doe@example.com';
// The client's request: its e-mail address becomes [EMAIL_1].
const PROMPT = `Mail the invoice to ${EMAIL}.`;
// What the model writes as a custom tool's input, an MCP call's arguments and interpreter code.
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

/**
 * A native Responses stream whose tool-like output (custom tool input, MCP arguments, interpreter
 * code) carries a placeholder cut between two deltas: the client reads the original, whole.
 */
describe('PII restore in streamed tool deltas of a native Responses upstream', () => {
  let frames: FrameServer;
  let servers: TempServers;
  let openai: OpenAI;

  beforeAll(async () => {
    frames = await startFrameServer();
    servers = await startTempServers({
      llm: { allowed_models: ['split-responses'] },
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
      ],
    });
    const created = await fetch(`${servers.gatewayUrl}/internal/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['responses'] }),
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
});
