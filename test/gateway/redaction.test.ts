import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OPENAI_UPSTREAM_KEY, startGatewayHarness, type GatewayHarness } from './support/harness.js';

// Provider error text quoting part of a key reaches key holders (502) and the health view redacted.

const FRAGMENT = 'sk-WR****-999';
const OPENAI_401 = `Incorrect API key provided: ${FRAGMENT}. You can find your API key at https://platform.openai.com/account/api-keys.`;

describe('provider errors quoting keys', () => {
  let h: GatewayHarness;
  let key: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    key = (await h.issueKey()).key;
  });
  afterAll(async () => h.close());
  beforeEach(() => h.openai.reset());

  const chat = (stream: boolean) =>
    fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', stream, messages: [{ role: 'user', content: 'hi' }] }),
    });
  const lastError = async (): Promise<string> => {
    const health = await h.admin('GET', '/internal/deployments/health');
    expect(health.status).toBe(200);
    return health.body.data.find((d: { id: string }) => d.id === 'gpt-4o-mini').last_error;
  };

  it('redacts the key fragment from the 502 message and the health view', async () => {
    h.openai.setNext({
      status: 401,
      error: { message: OPENAI_401, type: 'invalid_request_error', code: 'invalid_api_key' },
    });
    const response = await chat(false);
    expect(response.status).toBe(502);
    expect(response.headers.get('x-upstream-status')).toBe('401');
    const body = (await response.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('upstream_error');
    expect(body.error.message).toContain('Incorrect API key provided: [redacted].');
    // The prose around it is left as the provider wrote it.
    expect(body.error.message).toContain('You can find your API key at https://platform.openai.com/account/api-keys.');
    expect(body.error.message).not.toContain('sk-WR');
    expect(body.error.message).not.toContain('999');

    const recorded = await lastError();
    expect(recorded).toContain('[redacted]');
    expect(recorded).not.toContain('sk-WR');
  });

  it('redacts the deployment key cut short, base64-encoded or percent-encoded', async () => {
    const cut = OPENAI_UPSTREAM_KEY.slice(0, 24);
    const base64 = Buffer.from(OPENAI_UPSTREAM_KEY.slice(0, 20)).toString('base64');
    const encoded = encodeURIComponent(OPENAI_UPSTREAM_KEY).replaceAll('-', '%2D');
    h.openai.setNext({
      status: 500,
      error: { message: `bad key prefix=${cut} basic=${base64} url=${encoded} (see the docs)`, type: 'server_error' },
    });
    const response = await chat(false);
    expect(response.status).toBe(502);
    const message = ((await response.json()) as { error: { message: string } }).error.message;
    for (const piece of [cut.slice(3, 15), base64.slice(0, 12), 'upstream%2Dopenai'])
      expect(message, message).not.toContain(piece);
    expect(message).toContain('(see the docs)');
    expect(await lastError()).not.toContain(cut.slice(3, 15));
  });

  it('redacts a key in an error event of a started stream', async () => {
    const quoted = 'sk-proj-Ab12********************Yz9Q';
    h.openai.setNext({ streamErrorAfterFrames: 1, error: { message: `Incorrect API key provided: ${quoted}` } });
    const response = await chat(true);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('[redacted]');
    expect(text).not.toContain('sk-proj');
    // A stream that started counts as a success for health; whatever it records must not hold the key.
    expect(String(await lastError())).not.toContain('sk-proj');
  });
});
