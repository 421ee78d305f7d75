import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnHeadless } from '../support/headless-process.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const WARNING = "the store's authentication is off (store.auth.enabled: false) while it listens on";

/** Starts the headless server with the store's authentication off, bound to `host`; returns its output. */
async function outputWithAuthOff(host: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-auth-off-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const config = join(dir, 'gatehouse.yaml');
  writeFileSync(config, 'store:\n  auth:\n    enabled: false\n');
  const server = await spawnHeadless({
    GATEHOUSE_DATA_DIR: join(dir, 'data'),
    GATEHOUSE_CONFIG: config,
    GATEHOUSE_HOST: host,
  });
  cleanups.push(() => server.child.kill('SIGKILL'));
  return server.output();
}

describe('a store without authentication', () => {
  it('warns at start when it listens beyond this machine, naming its address', async () => {
    const output = await outputWithAuthOff('0.0.0.0');
    expect(output).toContain(`${WARNING} 0.0.0.0: anyone who can reach http://0.0.0.0:`);
  });

  it('says nothing on the loopback address, where only this machine reaches it', async () => {
    const output = await outputWithAuthOff('127.0.0.1');
    expect(output).not.toContain(WARNING);
    expect(output).not.toContain('other machines can reach');
  });

  it('says, with authentication on too, that other machines can reach a server bound beyond this one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bound-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const server = await spawnHeadless({ GATEHOUSE_DATA_DIR: dir, GATEHOUSE_HOST: '0.0.0.0' });
    cleanups.push(() => server.child.kill('SIGKILL'));
    expect(server.output()).toContain('listening on 0.0.0.0: other machines can reach both services');
    expect(server.output()).toContain('cross the network unencrypted (server.tls turns on HTTPS)');
  });
});
