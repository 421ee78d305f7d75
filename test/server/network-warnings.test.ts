import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS, spawnHeadless } from '../support/headless-process.js';

const STORE_OPEN = "the store's authentication is off (store.auth.enabled: false) while it listens on 0.0.0.0";
const REACHABLE = 'listening on 0.0.0.0: other machines can reach both services';

/**
 * `--check` prints the warnings a start prints: those about who can reach the servers too, and a
 * store open to the network is said on stderr whatever the log level.
 */
describe('the warnings about who can reach the servers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-network-warnings-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const stops: Array<() => unknown> = [];
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
  });
  const file = join(dir, 'open.yaml');
  writeFileSync(file, 'server:\n  host: 0.0.0.0\n  store_port: 19251\nstore:\n  auth:\n    enabled: false\n');

  it('--check prints them, as the start does, and still calls the configuration valid', async () => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [...SERVER_NODE_FLAGS, '--import', 'tsx', 'src/server/cli.ts', '--check', '--config', file],
      { env: { ...process.env, GATEHOUSE_DATA_DIR: join(dir, 'checked') }, timeout: 20_000 },
    );
    expect(stdout).toContain('is valid');
    expect(stderr).toContain(
      `gatehouse: ${STORE_OPEN}: anyone who can reach http://0.0.0.0:19251 can read and change every namespace\n`,
    );
    expect(stderr).toContain(`gatehouse: ${REACHABLE}`);
    expect(stderr).toContain('cross the network unencrypted (server.tls turns on HTTPS)');
  });

  it('--check says nothing of them on the loopback address', async () => {
    const { stderr } = await promisify(execFile)(
      process.execPath,
      [...SERVER_NODE_FLAGS, '--import', 'tsx', 'src/server/cli.ts', '--check', '--config', file],
      {
        env: { ...process.env, GATEHOUSE_DATA_DIR: join(dir, 'checked'), GATEHOUSE_HOST: '127.0.0.1' },
        timeout: 20_000,
      },
    );
    expect(stderr).not.toContain(STORE_OPEN.slice(0, 40));
    expect(stderr).not.toContain('other machines can reach');
  });

  it('the start says the store is open on stderr even with the log set to error', async () => {
    const server = await spawnHeadless({
      GATEHOUSE_DATA_DIR: join(dir, 'data'),
      GATEHOUSE_CONFIG: file,
      STORE_PORT: '0',
      GATEHOUSE_LOG_LEVEL: 'error',
    });
    stops.push(() => server.child.kill('SIGKILL'));
    await waitFor(() => server.output().includes(`gatehouse: ${STORE_OPEN}`));
    expect(server.output()).toContain(`gatehouse: ${STORE_OPEN}: anyone who can reach ${server.storeUrl} can read`);
    // The JSON log lines stay below the level: only the plain line says it.
    expect(server.output()).not.toContain('"level":40');
  });
});

/** Waits for a line written after the addresses (the output arrives in chunks). */
async function waitFor(condition: () => boolean): Promise<void> {
  for (let tries = 0; tries < 100 && !condition(); tries += 1) await new Promise((resolve) => setTimeout(resolve, 50));
}
