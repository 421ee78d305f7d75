import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

const MCP_HEADER = 'Bearer rk_live_0123456789mcpheader';
const MCP_AUTHORIZATION = 'mcp-authorization-0123456789';
const MCP_SERVER_TOKEN = 'mcp-server-token-0123456789';

/**
 * Credentials the APIs carry in request bodies for third parties (a Responses MCP tool's
 * `authorization` and `headers`, a Messages MCP server's `authorization_token`) reach the upstream
 * as sent, and never the traffic view: whatever their case, and also in a body cut at the size limit,
 * which the view shows as text.
 */
describe('credentials in recorded request bodies', () => {
  let h: GatewayHarness;
  let key: string;

  beforeAll(async () => {
    h = await startGatewayHarness({
      deployments: [
        { id: 'native-responses', model: 'resp-native', provider: 'openai', upstream_model: 'gpt-4.1', responses_api: 'native' },
      ],
    }); // prettier-ignore
    const models = (await h.admin('GET', '/internal/models')).body.allowed_models;
    expect((await h.admin('PUT', '/internal/models', { allowed_models: [...models, 'resp-native'] })).status).toBe(200);
    key = (await h.issueKey({ scopes: ['*'] })).key;
  });
  beforeEach(() => {
    h.openai.reset();
    h.anthropic.reset();
  });
  afterAll(() => h.close());

  const recorded = async (): Promise<{ request_body: unknown; truncated: boolean }> =>
    (await h.admin('GET', '/internal/traffic?limit=1&bodies=true')).body.data[0];

  const mcpTool = (fields: Record<string, unknown>) =>
    ({ type: 'mcp', server_label: 'billing', server_url: 'https://mcp.example.com', require_approval: 'never', ...fields }) as never; // prettier-ignore

  it('a Responses MCP tool: `headers.Authorization` and `authorization`', async () => {
    await h.openaiClient(key).responses.create({
      model: 'resp-native',
      store: false,
      input: 'hi',
      tools: [mcpTool({ headers: { Authorization: MCP_HEADER }, authorization: MCP_AUTHORIZATION })],
    });
    expect(h.openai.lastRequest()!.body.tools[0]).toMatchObject({
      headers: { Authorization: MCP_HEADER },
      authorization: MCP_AUTHORIZATION,
    });
    const event = await recorded();
    const text = JSON.stringify(event);
    expect(text).not.toContain(MCP_HEADER);
    expect(text).not.toContain(MCP_AUTHORIZATION);
    expect((event.request_body as { tools: unknown[] }).tools[0]).toMatchObject({
      headers: { Authorization: '[redacted]' },
      authorization: '[redacted]',
    });
  });

  it("a Messages MCP server's authorization_token", async () => {
    await h.anthropicClient(key).messages.create({
      model: 'claude-opus-4-7',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
      mcp_servers: [
        { type: 'url', url: 'https://mcp.example.com', name: 'billing', authorization_token: MCP_SERVER_TOKEN },
      ],
    } as never);
    expect(h.anthropic.lastRequest()!.rawBody).toContain(MCP_SERVER_TOKEN);
    const text = JSON.stringify(await recorded());
    expect(text).not.toContain(MCP_SERVER_TOKEN);
    expect(text).toContain('"authorization_token":"[redacted]"');
  });

  it('a body cut at the size limit, shown as text', async () => {
    await h.openaiClient(key).responses.create({
      model: 'resp-native',
      store: false,
      tools: [mcpTool({ headers: { Authorization: MCP_HEADER }, authorization: MCP_AUTHORIZATION })],
      input: 'long '.repeat(20_000),
    });
    const event = await recorded();
    expect(event.truncated).toBe(true);
    expect(typeof event.request_body).toBe('string');
    expect(event.request_body).not.toContain(MCP_HEADER);
    expect(event.request_body).not.toContain(MCP_AUTHORIZATION);
    expect(event.request_body).toContain('"Authorization":"[redacted]"');
  });
});
