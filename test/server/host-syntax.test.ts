import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { failedStart } from '../support/headless-process.js';

const NO_PORT_OR_SCHEME =
  'must be an address or host name only, such as 127.0.0.1, 0.0.0.0 or ::1: the host takes no port or scheme (the ports are server.gateway_port and server.store_port, or GATEWAY_PORT and STORE_PORT)';

/**
 * A host written as a URL or with its port used to pass `--check` and then fail to listen as "a name
 * that does not resolve": the configuration refuses it, naming the key and where the ports go.
 */
describe('server.host', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-host-syntax-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = { GATEHOUSE_DATA_DIR: join(dir, 'data'), GATEHOUSE_CONFIG: '' };

  it.each(['127.0.0.1:80', 'http://0.0.0.0', '[::1]:8747'])('refuses GATEHOUSE_HOST=%s at --check', async (host) => {
    const checked = await failedStart({ ...env, GATEHOUSE_HOST: host }, 20_000, ['--check']);
    expect(checked?.code).toBe(2);
    expect(checked?.stderr).toContain(`GATEHOUSE_HOST (server.host): ${NO_PORT_OR_SCHEME}`);
  });

  it('refuses it at start too, before listening', async () => {
    const started = await failedStart({ ...env, GATEHOUSE_HOST: '127.0.0.1:80' });
    expect(started?.code).toBe(2);
    expect(started?.stderr).toContain(`GATEHOUSE_HOST (server.host): ${NO_PORT_OR_SCHEME}`);
  });

  it('refuses one in the file, naming the key', async () => {
    const file = join(dir, 'host.yaml');
    writeFileSync(file, 'server:\n  host: http://0.0.0.0:8747\n');
    const checked = await failedStart(env, 20_000, ['--check', '--config', file]);
    expect(checked?.code).toBe(2);
    expect(checked?.stderr).toContain(`server.host: ${NO_PORT_OR_SCHEME}`);
  });

  it.each(['::1', '::', 'localhost'])('keeps %s valid', async (host) => {
    const checked = await failedStart({ ...env, GATEHOUSE_HOST: host }, 20_000, ['--check']);
    expect(checked).toBeUndefined();
  });
});
