import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responsesTestBed } from '../support/responses-test-bed.js';
import { startTempServers, type TempServers } from '../support/temp-servers.js';
import { openAIClientWithNewKey } from '../support/sdk-clients.js';
import { startFrameServer, type FrameServer } from '../support/upstreams/index.js';

/** Shapes of the Responses API as OpenAI gives them, on the gateway's own objects. */
describe('Responses shapes as OpenAI has them', () => {
  const bed = responsesTestBed('sk-respnext-shapes-0123456789');

  it('lists input items with their status', async () => {
    const tools = [{ type: 'function' as const, name: 'run', parameters: {}, strict: false }];
    const made = await bed.client.responses.create({
      model: 'bridged-model',
      store: true,
      tools,
      input: [
        { role: 'user', content: 'Run it' },
        { type: 'function_call', call_id: 'call_1', name: 'run', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'ok' },
      ],
    });
    const page = await bed.client.responses.inputItems.list(made.id, { order: 'asc' });
    expect(page.data.map((item) => [item.type, (item as { status?: string }).status])).toEqual([
      ['message', 'completed'],
      ['function_call', 'completed'],
      ['function_call_output', 'completed'],
    ]);
    // Only the list shows it: the kept items go upstream again as the client sent them.
    await bed.client.responses.create({ model: 'bridged-model', input: 'and?', previous_response_id: made.id, tools });
    const sent = bed.upstream.lastRequest()!.body.messages as Array<Record<string, unknown>>;
    expect(sent.some((message) => 'status' in message)).toBe(false);
  });

  it("names previous_response_id as the param of a refusal of the conversation's items", async () => {
    bed.upstream.setNext({ reply: { toolCalls: [{ id: 'call_up1', name: 'run', arguments: {} }] } });
    const tools = [{ type: 'function' as const, name: 'run', parameters: {}, strict: false }];
    const first = await bed.client.responses.create({ model: 'bridged-model', input: 'Run', tools, store: true });
    const failure = await bed.client.responses
      .create({ model: 'bridged-model', input: 'Never mind', previous_response_id: first.id, tools })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    expect((failure as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('previous_response_id');
    expect((failure as Error).message).toContain("previous_response_id's conversation, item 1: No tool output found");
  });

  it('streams a text part with its logprobs, as content_part.added and in the final Response', async () => {
    const added: unknown[] = [];
    const stream = bed.client.responses.stream({ model: 'bridged-model', input: 'hello there' });
    for await (const event of stream) if (event.type === 'response.content_part.added') added.push(event.part);
    expect(added).toEqual([{ type: 'output_text', text: '', annotations: [], logprobs: [] }]);
    const final = await stream.finalResponse();
    expect(final.output[0]).toMatchObject({ content: [{ type: 'output_text', annotations: [], logprobs: [] }] });
  });
});

const event = (type: string, payload: object): string =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;

/** A native stream that breaks: the kept Response is rebuilt from its events, in OpenAI's shape. */
describe('a kept native Responses stream that breaks', () => {
  let frames: FrameServer;
  let servers: TempServers;
  let client: OpenAI;

  beforeAll(async () => {
    frames = await startFrameServer();
    servers = await startTempServers({
      llm: { allowed_models: ['native-x'] },
      gateway: { max_retries: 0 },
      deployments: [
        {
          id: 'n',
          model: 'native-x',
          provider: 'openai',
          base_url: `${frames.url}/v1`,
          api_key: 'sk-x-0123456789',
          responses_api: 'native',
        },
      ],
    });
    client = await openAIClientWithNewKey(servers, { scopes: ['responses'] });
  });
  afterAll(async () => {
    await servers.stop();
    await frames.close();
  });

  it('keeps its text parts with annotations and logprobs, also one its events never added', async () => {
    const message = { type: 'message', id: 'msg_up1', status: 'in_progress', role: 'assistant', content: [] };
    const at = { item_id: 'msg_up1', output_index: 0 };
    frames.serveFrames([
      event('response.created', {
        sequence_number: 0,
        response: { id: 'resp_up1', object: 'response', created_at: 1, status: 'in_progress', model: 'x', output: [] },
      }),
      event('response.output_item.added', { sequence_number: 1, output_index: 0, item: message }),
      event('response.content_part.added', {
        sequence_number: 2,
        ...at,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      }),
      event('response.output_text.delta', { sequence_number: 3, ...at, content_index: 0, delta: 'Hel' }),
      // A server that sends a part's text without adding the part first.
      event('response.output_text.delta', { sequence_number: 4, ...at, content_index: 1, delta: 'lo' }),
      // The body ends here, before response.completed.
    ]);
    let id: string | undefined;
    const failure = await (async () => {
      const stream = await client.responses.create({ model: 'native-x', input: 'write', store: true, stream: true });
      for await (const streamed of stream) if (streamed.type === 'response.created') id = streamed.response.id;
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    const kept = await client.responses.retrieve(id!);
    expect(kept.status).toBe('failed');
    expect(kept.output[0]).toMatchObject({
      status: 'incomplete',
      content: [
        { type: 'output_text', text: 'Hel', annotations: [], logprobs: [] },
        { type: 'output_text', text: 'lo', annotations: [], logprobs: [] },
      ],
    });
  });
});
