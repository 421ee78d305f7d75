import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { haDeployments, startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * What the deployment health view and the cooldown it drives make of each kind of failure: a stream
 * that breaks after it started is the deployment's failure, a request the provider refuses as
 * malformed is not, and a deployment whose upstream an admin changed starts afresh. The harness's
 * `ha-model` has a primary that is all but always chosen first, one attempt per deployment.
 */
describe('deployment health and cooldown', () => {
  let h: GatewayHarness;
  let key: string;
  beforeEach(async () => {
    h = await startGatewayHarness();
    key = (await h.issueKey({ scopes: ['*'] })).key;
  });
  afterEach(async () => h.close());

  const ask = async (stream = false): Promise<{ status: number; deployment: string | null; text: string }> => {
    const response = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'ha-model', stream, messages: [{ role: 'user', content: 'one two three four' }] }),
    });
    return {
      status: response.status,
      deployment: response.headers.get('x-gateway-deployment'),
      text: await response.text(),
    };
  };
  const healthOf = async (id: string) =>
    (await h.admin('GET', '/internal/deployments/health')).body.data.find((d: { id: string }) => d.id === id);

  it('counts a stream that breaks after it started as a failure, and three in a row cool the deployment down', async () => {
    for (let i = 0; i < 3; i += 1) {
      h.openai.setNext({ dropAfterFrames: 2 });
      const broken = await ask(true);
      expect(broken.status).toBe(200);
      expect(broken.deployment).toBe('ha-primary');
      expect(broken.text).toContain('"error"');
    }
    expect(await healthOf('ha-primary')).toMatchObject({
      state: 'cooling_down',
      requests: 3,
      successes: 0,
      failures: 3,
      consecutive_failures: 3,
      last_status: null,
    });
    expect((await healthOf('ha-primary')).last_error).toMatch(/connection failed|stream/);
    const before = h.openai.requests.length;
    const next = await ask(true);
    expect(next.deployment).toBe('ha-secondary');
    expect(h.openai.requests.length).toBe(before);
  });

  it('counts a stream that ends well as a success', async () => {
    const fine = await ask(true);
    expect(fine.text).toContain('[DONE]');
    expect(await healthOf('ha-primary')).toMatchObject({ state: 'healthy', requests: 1, successes: 1, failures: 0 });
  });

  it("does not cool a deployment down for requests the provider refused as the client's mistake", async () => {
    for (const status of [400, 413, 422]) {
      h.openai.setNext({ status, error: { message: 'max_tokens is too large for this model' } });
      const refused = await ask();
      expect(refused.status).toBe(502);
    }
    expect(await healthOf('ha-primary')).toMatchObject({
      state: 'healthy',
      requests: 3,
      failures: 3,
      consecutive_failures: 0,
      last_status: 422,
      cooldown_until: null,
    });
    expect((await ask()).deployment).toBe('ha-primary');
  });

  it('still cools a deployment down for a key, a model or an address the provider refuses', async () => {
    for (const status of [401, 404, 405]) {
      h.openai.setNext({ status });
      expect((await ask()).deployment).toBe('ha-secondary');
    }
    expect(await healthOf('ha-primary')).toMatchObject({ state: 'cooling_down', consecutive_failures: 3 });
    const before = h.openai.requests.length;
    expect((await ask()).deployment).toBe('ha-secondary');
    expect(h.openai.requests.length).toBe(before);
  });

  it("starts afresh when an admin changes a deployment's upstream, so the fixed one is used at once", async () => {
    const deployments = (primaryUrl: string) => ({ deployments: haDeployments(primaryUrl, h.openaiSecondary.url) });
    // Port 9 (discard) has no listener here: every call is refused at once.
    expect((await h.admin('PUT', '/internal/deployments', deployments('http://127.0.0.1:9/v1'))).status).toBe(200);
    for (let i = 0; i < 3; i += 1) expect((await ask()).deployment).toBe('ha-secondary');
    expect(await healthOf('ha-primary')).toMatchObject({ state: 'cooling_down' });

    expect((await h.admin('PUT', '/internal/deployments', deployments(h.openai.url))).status).toBe(200);
    expect(await healthOf('ha-primary')).toMatchObject({ state: 'unused', requests: 0, cooldown_until: null });
    expect((await ask()).deployment).toBe('ha-primary');
    // A save that leaves a deployment's upstream as it was keeps what it did.
    expect((await h.admin('PUT', '/internal/deployments', deployments(h.openai.url))).status).toBe(200);
    expect(await healthOf('ha-primary')).toMatchObject({ state: 'healthy', requests: 1 });
  });
});
