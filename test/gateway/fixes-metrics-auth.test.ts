import { afterEach, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';

/**
 * The gateway's `/metrics` is public unless `gateway.metrics_public: false`, which makes it need the
 * master key or an API key with the `metrics` scope, answered otherwise with the shared 401 error shape
 * like the admin API.
 */
describe('gateway.metrics_public', () => {
  let servers: TempServers | undefined;
  afterEach(async () => {
    await servers?.stop();
    servers = undefined;
  });

  const metrics = (authorization?: string): Promise<Response> =>
    fetch(`${servers!.gatewayUrl}/metrics`, { headers: authorization === undefined ? {} : { authorization } });

  it('serves /metrics without a key by default', async () => {
    servers = await startTempServers();
    const answer = await metrics();
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('gateway_requests_total');
  });

  it('needs the master key when false, refusing with the shared 401 shape', async () => {
    servers = await startTempServers({ gateway: { metrics_public: false } });

    const missing = await metrics();
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({
      error: {
        type: 'authentication_error',
        message:
          'missing credential: /metrics needs Authorization: Bearer with PROXY_MASTER_KEY (or the content of the master.key file in the data folder, when the server generated it) or an API key with the metrics scope',
      },
    });

    const wrong = await metrics('Bearer gk-not-the-master-key-0123456789');
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { message: string } }).error.message).toBe(
      'invalid master key or API key; /metrics needs PROXY_MASTER_KEY (or the content of the master.key file in the data folder, when the server generated it) or an API key with the metrics scope (gateway.metrics_public is false)',
    );

    const allowed = await metrics(`Bearer ${TEST_MASTER_KEY}`);
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain('gateway_requests_total');

    // Only /metrics: the health checks stay open for probes.
    expect((await fetch(`${servers.gatewayUrl}/healthz`)).status).toBe(200);
  });
});
