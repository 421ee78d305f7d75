import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS, spawnHeadless } from '../support/headless-process.js';

/**
 * A SIGTERM while the servers were starting ended the process at once (no handler yet), leaving the
 * data folder held, which the next start reported as a server that did not stop cleanly.
 */
describe('a signal while the servers start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-signal-start-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is held until they have started, then stops them cleanly', async () => {
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', 'src/server/cli.ts'], {
      env: { ...process.env, GATEWAY_PORT: '0', STORE_PORT: '0', GATEHOUSE_DATA_DIR: dir, GATEHOUSE_CONFIG: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = once(child, 'exit');
    // The moment the data folder is held: the database is not open yet, the ports not bound.
    const deadline = Date.now() + 20_000;
    while (!existsSync(join(dir, 'gatehouse.lock')) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 1));
    child.kill('SIGTERM');
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(output).toMatch(/SIGTERM received( while starting)?, finishing requests in flight/);
    expect(output).toContain('gatehouse: stopped');

    const next = await spawnHeadless({ GATEHOUSE_DATA_DIR: dir, GATEHOUSE_CONFIG: '' });
    next.child.kill('SIGTERM');
    await next.exited();
    expect(next.output()).not.toContain('did not stop cleanly');
  });
});
