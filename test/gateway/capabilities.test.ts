import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

const KEY = 'sk-capabilities-upstream-0123456789';

/** Deployments declare capabilities; requests go only where theirs are offered, and say which policy answered. */
describe('capability routing and the policy version', () => {
  let plain: OpenAIUpstream;
  let rich: OpenAIUpstream;
  let servers: TempServers;
  let client: OpenAI;
  let claude: Anthropic;

  const admin = gatewayAdmin(() => servers);

  beforeAll(async () => {
    [plain, rich] = await Promise.all([startOpenAIUpstream({ apiKey: KEY }), startOpenAIUpstream({ apiKey: KEY })]);
    const deployment = (id: string, model: string, url: string, capabilities: string[], weight = 1) => ({
      id,
      model,
      provider: 'openai',
      upstream_model: 'gpt-4o-mini',
      base_url: url,
      api_key: KEY,
      weight,
      capabilities,
    });
    servers = await startTempServers({
      llm: { allowed_models: ['mixed', 'text-only', 'demo/echo'] },
      gateway: { max_retries: 0 },
      deployments: [
        // The plain one would be chosen first (all but certainly) if capabilities did not decide.
        deployment('mixed-plain', 'mixed', plain.url, ['streaming'], 1_000_000),
        deployment('mixed-rich', 'mixed', rich.url, ['streaming', 'tools', 'vision', 'responses'], 0.000001),
        deployment('text-only', 'text-only', plain.url, ['streaming']),
      ],
    });
    const created = await admin('POST', '/internal/api-keys', { scopes: ['chat', 'responses', 'embeddings'] });
    client = new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: created.body.key, maxRetries: 0 });
    claude = new Anthropic({ baseURL: servers.gatewayUrl, apiKey: created.body.key, maxRetries: 0 });
  });
  beforeEach(() => {
    plain.reset();
    rich.reset();
  });
  afterAll(async () => {
    await servers.stop();
    await Promise.all([plain.close(), rich.close()]);
  });

  const tools = [{ type: 'function' as const, function: { name: 'f', parameters: { type: 'object' } } }];

  it('sends a request to the deployment that offers what it needs', async () => {
    const plainAnswer = await client.chat.completions
      .create({ model: 'mixed', messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(plainAnswer.response.headers.get('x-gateway-deployment')).toBe('mixed-plain');
    const withTools = await client.chat.completions
      .create({ model: 'mixed', messages: [{ role: 'user', content: 'hi' }], tools })
      .withResponse();
    expect(withTools.response.headers.get('x-gateway-deployment')).toBe('mixed-rich');
    expect(rich.requests).toHaveLength(1);
    const responses = await client.responses.create({ model: 'mixed', input: 'hi' }).withResponse();
    expect(responses.response.headers.get('x-gateway-deployment')).toBe('mixed-rich');
  });

  it('refuses with capability_not_supported, naming what is missing, before any upstream call', async () => {
    const image = { type: 'image_url' as const, image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } };
    const error = await client.chat.completions
      .create({
        model: 'text-only',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'what is it' }, image] }],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.APIError>).type).toBe('capability_not_supported');
    expect((error as Error).message).toContain('vision');
    const responses = await client.responses.create({ model: 'text-only', input: 'hi' }).catch((e: unknown) => e);
    expect((responses as Error).message).toContain('responses');
    expect(plain.requests).toHaveLength(0);
  });

  it('finds an image inside a tool result, a Messages schema, and no reasoning in thinking turned off', async () => {
    const png = { type: 'base64' as const, media_type: 'image/png' as const, data: 'iVBORw0KGgo=' };
    const refused = (body: Record<string, unknown>) =>
      claude.messages
        .create({ model: 'text-only', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }], ...body } as never)
        .catch((e: unknown) => e);
    const history = [
      { role: 'user', content: 'look' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'image', source: png }] }],
      },
    ];
    const image = await refused({ messages: history, tools: [{ name: 'f', input_schema: { type: 'object' } }] });
    expect(image).toBeInstanceOf(Anthropic.BadRequestError);
    expect((image as Error).message).toContain('offers vision');
    const schema = await refused({
      output_config: { format: { type: 'json_schema', schema: { type: 'object', properties: {} } } },
    });
    expect((schema as Error).message).toContain('offers structured_outputs');
    expect(plain.requests).toHaveLength(0);
    const off = await claude.messages.create({
      model: 'text-only',
      max_tokens: 20,
      thinking: { type: 'disabled' },
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(off.type).toBe('message');
  });

  it('refuses an unknown capability name when deployments are saved', async () => {
    const saved = await admin('PUT', '/internal/deployments', {
      deployments: [{ model: 'mixed', provider: 'openai', base_url: plain.url, capabilities: ['stream'] }],
    });
    expect(saved.status).toBe(400);
    expect(saved.body.error.message).toContain('capabilities[0]');
  });

  it('X-Gateway-Policy-Version is on every answer, stable while the settings are, and changes with them', async () => {
    const version = async (): Promise<string | null> => {
      const chat = await client.chat.completions
        .create({ model: 'demo/echo', messages: [{ role: 'user', content: 'x' }] })
        .withResponse();
      const models = await client.models.list().withResponse();
      expect(models.response.headers.get('x-gateway-policy-version')).toBe(
        chat.response.headers.get('x-gateway-policy-version'),
      );
      return chat.response.headers.get('x-gateway-policy-version');
    };
    const first = await version();
    expect(first).toMatch(/^[0-9a-f]{16}$/);
    expect(await version()).toBe(first);
    const settings = await admin('GET', '/internal/models');
    await admin('PUT', '/internal/models', { model_aliases: { ...settings.body.model_aliases, quick: 'demo/echo' } });
    const changed = await version();
    expect(changed).not.toBe(first);
    await admin('PUT', '/internal/models', { model_aliases: settings.body.model_aliases });
    expect(await version()).toBe(first);
  });
});
