import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOpenAIUpstream } from '../support/upstreams/index.js';
import { haDeployments, OPENAI_UPSTREAM_KEY, startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** Port 9 (discard) has no listener here: every call to it is refused at once. */
const DEAD_URL = 'http://127.0.0.1:9/v1';

/**
 * A deployment an admin fixes through the admin API is used by the next request: what its old
 * upstream did, including calls to it that end only after the save, is not held against the new one.
 * The health view says since when a deployment fails and when it last answered, and forgets the
 * deployments a save removed. The harness's `ha-model` has a primary that is all but always chosen
 * first, one attempt per deployment.
 */
describe('deployment health after a save, and since when', () => {
  let h: GatewayHarness;
  let key: string;
  beforeEach(async () => {
    h = await startGatewayHarness();
    key = (await h.issueKey({ scopes: ['*'] })).key;
  });
  afterEach(async () => h.close());

  const ask = async (): Promise<string | null> => {
    const response = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'ha-model', messages: [{ role: 'user', content: 'hello' }] }),
    });
    await response.text();
    return response.headers.get('x-gateway-deployment');
  };
  const save = async (deployments: Array<Record<string, unknown>>): Promise<void> => {
    expect((await h.admin('PUT', '/internal/deployments', { deployments })).status).toBe(200);
  };
  const health = async (): Promise<Array<Record<string, unknown>>> =>
    (await h.admin('GET', '/internal/deployments/health')).body.data;
  const healthOf = async (id: string) => (await health()).find((d) => d.id === id);

  it('does not count calls to the old upstream that fail after the save', async () => {
    const slowFailure = { status: 500, delayMs: 300 };
    h.openai.setNext(slowFailure, slowFailure, slowFailure);
    const underway = Promise.all([ask(), ask(), ask()]);
    await h.openai.waitForRequests(3);
    // The primary moves to a working upstream while three calls to the old one are still running.
    const replacement = await startOpenAIUpstream({ apiKey: OPENAI_UPSTREAM_KEY });
    try {
      await save(haDeployments(replacement.url, h.openaiSecondary.url));
      expect(await underway).toEqual(['ha-secondary', 'ha-secondary', 'ha-secondary']);

      expect(await healthOf('ha-primary')).toMatchObject({ state: 'unused', requests: 0, cooldown_until: null });
      expect(await ask()).toBe('ha-primary');
      expect(replacement.requests).toHaveLength(1);
    } finally {
      await replacement.close();
    }
  });

  it('starts afresh for a deployment removed and then saved again on another upstream', async () => {
    await save(haDeployments(DEAD_URL, h.openaiSecondary.url));
    for (let i = 0; i < 3; i += 1) expect(await ask()).toBe('ha-secondary');
    expect(await healthOf('ha-primary')).toMatchObject({ state: 'cooling_down' });

    await save(haDeployments(DEAD_URL, h.openaiSecondary.url).slice(1));
    await save(haDeployments(h.openai.url, h.openaiSecondary.url));
    expect(await healthOf('ha-primary')).toMatchObject({ state: 'unused', requests: 0, cooldown_until: null });
    expect(await ask()).toBe('ha-primary');
  });

  it('keeps what a deployment removed and saved again on the same upstream did', async () => {
    await save(haDeployments(DEAD_URL, h.openaiSecondary.url));
    for (let i = 0; i < 3; i += 1) await ask();
    await save(haDeployments(DEAD_URL, h.openaiSecondary.url).slice(1));
    await save(haDeployments(DEAD_URL, h.openaiSecondary.url));
    expect(await healthOf('ha-primary')).toMatchObject({ state: 'cooling_down', consecutive_failures: 3 });
  });

  it('gives the start of the current run of failures and the last success', async () => {
    expect(await ask()).toBe('ha-primary');
    const answered = await healthOf('ha-primary');
    expect(answered).toMatchObject({ failing_since: null, last_success_at: answered?.last_used_at });
    expect(answered?.last_success_at).toEqual(expect.any(String));

    await save(haDeployments(DEAD_URL, h.openaiSecondary.url));
    await ask();
    const first = await healthOf('ha-primary');
    expect(first).toMatchObject({ consecutive_failures: 1, failing_since: first?.last_used_at });
    await ask();
    const second = await healthOf('ha-primary');
    // The run started with the first failure, not the latest one.
    expect(second).toMatchObject({ consecutive_failures: 2, failing_since: first?.failing_since });
    expect(second?.last_used_at).not.toBe(first?.failing_since);
  });

  it('leaves out a deployment a save removed, and shows it again once saved again', async () => {
    expect(await ask()).toBe('ha-primary');
    await save(haDeployments(h.openai.url, h.openaiSecondary.url).slice(1));
    const ids = (await health()).map((d) => d.id);
    expect(ids).toContain('ha-secondary');
    expect(ids).not.toContain('ha-primary');
    await save(haDeployments(h.openai.url, h.openaiSecondary.url));
    expect(await healthOf('ha-primary')).toMatchObject({ requests: 1, state: 'healthy' });
  });
});
