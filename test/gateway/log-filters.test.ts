import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * The usage log and the audit log are read by time range, as `/internal/usage` is, and the usage log
 * by the status, error type, user and team an SRE looks for ("every 502 of the last hour").
 */
describe('the usage and audit logs, filtered', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness();
  });
  afterAll(() => h?.close());

  it('by time range, status, error type, user and team', async () => {
    const key = await h.issueKey({ name: 'filters', user: 'ada', team: 'core', scopes: ['chat'] });
    const client = h.openaiClient(key.key);
    const before = new Date().toISOString();
    await client.chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'ok' }] });
    h.openai.setNext({ status: 500 });
    await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'fails' }] })
      .catch(() => undefined);
    const logs = async (query: string) => {
      const answer = await h.admin('GET', `/internal/usage/logs?key_id=${key.id}&${query}`);
      expect(answer.status).toBe(200);
      return (answer.body.data as Array<{ status: number; error_type: string | null }>).map((row) => row.status);
    };
    expect(await logs(`since=${before}`)).toEqual([502, 200]);
    expect(await logs(`until=${before}`)).toEqual([]);
    expect(await logs('status=502')).toEqual([502]);
    expect(await logs('error_type=upstream_error')).toEqual([502]);
    expect(await logs('user=ada&team=core')).toEqual([502, 200]);
    expect(await logs('team=other')).toEqual([]);

    const audit = await h.admin('GET', `/internal/audit?since=${before}&action=api_key.create`);
    expect(audit.status).toBe(200);
    expect(audit.body.data).toEqual([]);
    const earlier = await h.admin('GET', `/internal/audit?until=${before}&action=api_key.create`);
    expect(earlier.body.data.map((event: { target: string }) => event.target)).toContain(key.id);

    const bad = await h.admin('GET', '/internal/usage/logs?since=2026-02-01&until=2026-01-01');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('query parameter since must not be after until');
  });
});
