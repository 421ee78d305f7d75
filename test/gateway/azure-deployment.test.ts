import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/load.js';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';

// Azure's classic API: the deployment in the path, the version in the query, the key in `api-key`.
// The OpenAI mock serves only /v1 paths, so a small server records what Azure would receive.

const AZURE_KEY = 'azure-key-0123456789-secret';

interface Recorded {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Record<string, unknown>;
}

/** Answers chat completions and embeddings on any path, recording each request. */
async function startAzureMock(): Promise<{ origin: string; requests: Recorded[]; close(): Promise<void> }> {
  const requests: Recorded[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      const answer = (request.url ?? '').includes('/embeddings')
        ? {
            object: 'list',
            model: 'text-embedding-3-small',
            data: [{ object: 'embedding', index: 0, embedding: [0.25, 0.5] }],
            usage: { prompt_tokens: 2, total_tokens: 2 },
          }
        : {
            id: 'chatcmpl-azure',
            object: 'chat.completion',
            created: 1_700_000_000,
            model: 'gpt-4o-mini',
            choices: [{ index: 0, message: { role: 'assistant', content: 'from azure' }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
          };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function issueKey(servers: TempServers): Promise<string> {
  const response = await fetch(`${servers.gatewayUrl}/internal/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'azure', scopes: ['chat', 'embeddings'] }),
  });
  return ((await response.json()) as { key: string }).key;
}

describe('azure deployments', () => {
  let azure: Awaited<ReturnType<typeof startAzureMock>>;
  let servers: TempServers;
  let client: OpenAI;
  beforeAll(async () => {
    azure = await startAzureMock();
    // Written as LiteLLM writes it, loaded the way GATEHOUSE_CONFIG is.
    const file = join(mkdtempSync(join(tmpdir(), 'gatehouse-azure-')), 'config.yaml');
    writeFileSync(
      file,
      [
        'model_list:',
        '  - model_name: chat-eu',
        '    litellm_params:',
        '      model: azure/gpt4o-mini-eu',
        `      api_base: ${azure.origin}/`,
        `      api_key: ${AZURE_KEY}`,
        '      api_version: "2024-10-21"',
        '  - model_name: embed-eu',
        '    litellm_params:',
        '      model: azure/embed-small',
        `      api_base: ${azure.origin}`,
        `      api_key: ${AZURE_KEY}`,
        '      api_version: "2024-10-21"',
        '  - model_name: chat-v1',
        '    litellm_params:',
        '      model: azure/gpt-4o-mini',
        `      api_base: ${azure.origin}/openai/v1`,
        `      api_key: ${AZURE_KEY}`,
        '',
      ].join('\n'),
    );
    const { config } = loadConfig({ file, env: {} });
    servers = await startTempServers({ llm: config.llm, deployments: config.deployments });
    client = new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: await issueKey(servers), maxRetries: 0 });
  });
  afterAll(async () => {
    await servers?.stop();
    await azure?.close();
  });
  beforeEach(() => {
    azure.requests.length = 0;
  });

  it('sends chat completions to the deployment path with api-version and the api-key header', async () => {
    const completion = await client.chat.completions.create({
      model: 'chat-eu',
      messages: [{ role: 'user', content: 'hello azure' }],
    });
    expect(completion.choices[0]!.message.content).toBe('from azure');
    expect(completion.model).toBe('chat-eu');
    const [sent] = azure.requests;
    expect(sent!.method).toBe('POST');
    expect(sent!.url).toBe('/openai/deployments/gpt4o-mini-eu/chat/completions?api-version=2024-10-21');
    expect(sent!.headers['api-key']).toBe(AZURE_KEY);
    expect(sent!.headers.authorization).toBeUndefined();
  });

  it('sends embeddings to the deployment path too', async () => {
    const result = await client.embeddings.create({ model: 'embed-eu', input: 'hi', encoding_format: 'float' });
    expect(result.data[0]!.embedding).toEqual([0.25, 0.5]);
    const [sent] = azure.requests;
    expect(sent!.url).toBe('/openai/deployments/embed-small/embeddings?api-version=2024-10-21');
    expect(sent!.headers['api-key']).toBe(AZURE_KEY);
  });

  it('keeps the OpenAI path without an api_version (Azure v1 API base URL)', async () => {
    await client.chat.completions.create({ model: 'chat-v1', messages: [{ role: 'user', content: 'v1' }] });
    expect(azure.requests[0]!.url).toBe('/openai/v1/chat/completions');
    expect(azure.requests[0]!.body.model).toBe('gpt-4o-mini');
  });

  it('shows api_version in the admin view and takes it on a deployments save', async () => {
    const admin = (method: string, body?: unknown) =>
      fetch(`${servers.gatewayUrl}/internal/deployments`, {
        method,
        headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { data: Array<Record<string, unknown>> } }));
    const listed = await admin('GET');
    expect(listed.body.data.find((d) => d.model === 'chat-eu')).toMatchObject({
      provider: 'azure',
      upstream_model: 'gpt4o-mini-eu',
      api_version: '2024-10-21',
      api_key_set: true,
    });
    expect(listed.body.data.find((d) => d.model === 'chat-v1')).not.toHaveProperty('api_version');
    const saved = await admin('PUT', {
      deployments: [
        {
          id: 'eu',
          model: 'chat-eu',
          provider: 'azure',
          upstream_model: 'other-deployment',
          base_url: azure.origin,
          api_key: AZURE_KEY,
          api_version: '2025-01-01-preview',
        },
      ],
    });
    expect(saved.status).toBe(200);
    await client.chat.completions.create({ model: 'chat-eu', messages: [{ role: 'user', content: 'again' }] });
    expect(azure.requests[0]!.url).toBe(
      '/openai/deployments/other-deployment/chat/completions?api-version=2025-01-01-preview',
    );
    expect((await admin('PUT', { reset: true })).status).toBe(200);
  });
});
