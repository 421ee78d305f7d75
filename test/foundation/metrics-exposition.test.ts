import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, TEST_STORE_TOKEN, type TempServers } from '../support/temp-servers.js';

// promtool is Prometheus's own parser: what it accepts, a Prometheus server scrapes. `.ci/run`
// installs it (Debian's `prometheus` package); a machine without it skips this file, saying why.
const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
const hasPromtool = promtool.status === 0;

/** Runs `promtool check metrics`: its lint complaints too, since a user's CI may run it as it is. */
function check(text: string): { status: number | null; complaints: string[] } {
  const result = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  const complaints = `${result.stdout}${result.stderr}`.split('\n').filter((line) => line.trim() !== '');
  return { status: result.status, complaints };
}

describe.skipIf(!hasPromtool)('metrics exposition (promtool check metrics; skipped without promtool)', () => {
  let servers: TempServers;
  beforeAll(async () => {
    servers = await startTempServers();
    // Some traffic so that labelled series exist, errors included.
    await fetch(`${servers.gatewayUrl}/v1/models`);
    const issued = await fetch(`${servers.gatewayUrl}/internal/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'metrics', scopes: ['*'] }),
    });
    const { key } = (await issued.json()) as { key: string };
    await fetch(`${servers.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: 'count me' }] }),
    });
    await fetch(`${servers.storeUrl}/v1/apply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scope: { namespace: 'm', branch: 'main' }, documents: [{ key: 'a', content: 'b' }] }),
    });
  });
  afterAll(async () => {
    await servers.stop();
  });

  it('the gateway exposes valid Prometheus text with its seven metrics', async () => {
    const text = await (await fetch(`${servers.gatewayUrl}/metrics`)).text();
    const { status, complaints } = check(text);
    expect(status).toBe(0);
    expect(complaints).toEqual([]);
    for (const name of [
      'gateway_requests_total',
      'gateway_request_duration_seconds',
      'gateway_tokens_total',
      'gateway_rate_limit_hits_total',
      'gateway_cache_hits_total',
      'gateway_pii_entities_total',
      'gateway_content_policy_blocks_total',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    expect(text).toMatch(/gateway_requests_total\{model="demo\/echo",status="200"\} 1/);
  });

  it('the store exposes valid Prometheus text with the metrics of its document', async () => {
    const text = await (
      await fetch(`${servers.storeUrl}/metrics`, { headers: { authorization: `Bearer ${TEST_STORE_TOKEN}` } })
    ).text();
    const { status, complaints } = check(text);
    expect(status).toBe(0);
    expect(complaints).toEqual([]);
    for (const name of [
      'svc_http_requests_total',
      'svc_http_request_duration_seconds',
      'svc_operation_duration_seconds',
      'svc_changed_documents_total',
      'svc_operations_total',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    expect(text).toMatch(/svc_http_requests_total\{route="\/v1\/apply",method="POST",status="200"\} 1/);
  });
});
