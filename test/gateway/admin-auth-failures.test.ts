import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnHeadless, waitForLogLine, type HeadlessProcess } from '../support/headless-process.js';

const MASTER = 'gk-master-auth-failures-0123456789';
const GUESS = 'gk-guessed-master-key-9876543210';

/**
 * A wrong master key at /internal/* (someone guessing, or a script holding a stale key) left no trace:
 * it is now counted, and logged as a warning at most once per ten seconds, never with the key it sent.
 */
describe('refused master keys', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-admin-auth-'));
  let server: HeadlessProcess;

  beforeAll(async () => {
    server = await spawnHeadless({
      GATEHOUSE_DATA_DIR: join(dir, 'data'),
      PROXY_MASTER_KEY: MASTER,
      GATEHOUSE_LOG_LEVEL: 'info',
    });
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited();
    rmSync(dir, { recursive: true, force: true });
  });

  const admin = (path: string, key?: string) =>
    fetch(`${server.gatewayUrl}${path}`, { headers: key === undefined ? {} : { authorization: `Bearer ${key}` } });

  it('are counted, and a wrong one is logged once for a burst, without the key', async () => {
    for (let i = 0; i < 5; i += 1) expect((await admin('/internal/api-keys', GUESS)).status).toBe(401);
    expect((await admin('/internal/api-keys')).status).toBe(401);

    const line = await waitForLogLine(server, (entry) => entry.msg === 'admin API: wrong master key refused');
    expect(line).toMatchObject({ level: 40, method: 'GET', path: '/internal/api-keys', refused: 1 });
    const lines = server
      .output()
      .split('\n')
      .filter((text) => text.includes('wrong master key refused'));
    expect(lines).toHaveLength(1);
    expect(server.output()).not.toContain(GUESS);

    const metrics = await (await admin('/metrics', MASTER)).text();
    expect(metrics).toMatch(/^gateway_admin_auth_failures_total 6$/m);
  });
});
