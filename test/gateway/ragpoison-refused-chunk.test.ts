import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_STORE_TOKEN } from '../support/temp-servers.js';
import { OPENAI_UPSTREAM_KEY, startGatewayHarness, type GatewayHarness } from './support/harness.js';

interface RefusingUpstream {
  readonly url: string;
  /** Every call's inputs, oldest first. */
  readonly calls: string[][];
  /** While true, every call is answered 503. */
  down: boolean;
  close(): Promise<void>;
}

/** An embeddings upstream that refuses, as too long, every call with an input holding `REFUSED`. */
async function startRefusingUpstream(): Promise<RefusingUpstream> {
  const calls: string[][] = [];
  const state = { down: false };
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (part: Buffer) => (raw += part.toString()));
    request.on('end', () => {
      const input = (JSON.parse(raw) as { input: string[] }).input;
      calls.push(input);
      if (state.down) {
        response.writeHead(503, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: 'Overloaded.', type: 'server_error', code: null } }));
        return;
      }
      const refused = input.some((text) => text.includes('REFUSED'));
      const body = refused
        ? {
            error: {
              message: "This model's maximum context length is 8192 tokens.",
              type: 'invalid_request_error',
              code: 'context_length_exceeded',
              param: 'input',
            },
          }
        : {
            object: 'list',
            data: input.map((_, index) => ({ object: 'embedding', index, embedding: [1, index + 1, 0.5, 0.25] })),
            model: 'text-embedding-3-small',
            usage: { prompt_tokens: input.length, total_tokens: input.length },
          };
      response.writeHead(refused ? 400 : 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    calls,
    get down() {
      return state.down;
    },
    set down(value: boolean) {
      state.down = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const documents = Array.from({ length: 10 }, (_, index) => ({
  key: `note-${index}.md`,
  content: `# Note ${index}\n\nNote number ${index}${index === 4 ? ' REFUSED' : ''} is about topic ${index}.`,
}));

const refusedAlone = (upstream: RefusingUpstream): number =>
  upstream.calls.filter((input) => input.length === 1 && input[0]!.includes('REFUSED')).length;

async function waitFor(done: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * One document the embedding model refuses (too long for it) costs that document its vector, not the
 * other documents embedded in the same call, nor those of the rest of the sync; nor does it keep the
 * background embedding from the chunks after it.
 */
describe('a document the embedding model refuses', () => {
  let h: GatewayHarness;
  let upstream: RefusingUpstream;
  beforeAll(async () => {
    upstream = await startRefusingUpstream();
    h = await startGatewayHarness({
      rag: { embedding_model: 'text-embedding-3-small' },
      providers: { openai: { base_url: upstream.url, api_key: OPENAI_UPSTREAM_KEY } },
    });
  });
  afterAll(async () => {
    await h?.close();
    await upstream?.close();
  });

  const syncCollection = async (name: string): Promise<void> => {
    const scope = { namespace: `kb/${name}`, branch: 'main' };
    const applied = await fetch(`${h.servers.storeUrl}/v1/apply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scope, documents }),
    });
    expect(applied.status).toBe(200);
    expect((await h.admin('POST', '/internal/rag/collections', { name, source: scope })).status).toBe(201);
    expect((await h.admin('POST', `/internal/rag/collections/${name}/sync`)).status).toBe(200);
  };
  const embeddedChunks = async (name: string): Promise<number> =>
    (await h.admin('GET', `/internal/rag/collections/${name}`)).body.embedded_chunks as number;

  it('costs only its own vector in a sync', async () => {
    await syncCollection('poison');
    const collection = (await h.admin('GET', '/internal/rag/collections/poison')).body;
    expect(collection).toMatchObject({ documents: 10, chunks: 10, embedded_chunks: 9 });
    const chunks = (await h.admin('GET', '/internal/rag/collections/poison/chunks?limit=100')).body.data as Array<{
      document_key: string;
      embedded: boolean;
    }>;
    expect(chunks.filter((chunk) => !chunk.embedded).map((chunk) => chunk.document_key)).toEqual(['note-4.md']);
  }, 20_000);

  it('costs only its own vector in the background embedding, which then stops asking for it', async () => {
    upstream.down = true;
    await syncCollection('later');
    expect(await embeddedChunks('later')).toBe(0);
    upstream.down = false;
    // The model answering (to an ingest) starts the background embedding of what the sync left.
    expect((await h.admin('POST', '/internal/rag/collections', { name: 'trigger' })).status).toBe(201);
    await h.admin('POST', '/internal/rag/collections/trigger/documents', { key: 'a.txt', content: 'Plain words.' });
    await waitFor(async () => (await embeddedChunks('later')) === 9, 'the 9 chunks of collection later');

    // Refused once on its own, it is not asked for again when the model answers the next time.
    const asked = refusedAlone(upstream);
    await h.admin('POST', '/internal/rag/collections/trigger/documents', { key: 'b.txt', content: 'More words.' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(refusedAlone(upstream)).toBe(asked);
    expect(await embeddedChunks('later')).toBe(9);
  }, 30_000);
});
