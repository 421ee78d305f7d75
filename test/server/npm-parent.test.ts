import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../support/headless-process.js';
import { TEST_MASTER_KEY } from '../support/temp-servers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * `npm run serve` starts the server through a shell, and npm passes a SIGTERM on to that shell only,
 * which dies of it: the server must notice and stop as for a SIGTERM, not live on holding its ports
 * and data folder.
 */
describe('the headless server started by an npm script', () => {
  it('stops cleanly when the shell between npm and it is gone', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-npm-parent-'));
    dirs.push(dataDir);
    const command = [process.execPath, ...SERVER_NODE_FLAGS, '--import', 'tsx', 'src/server/cli.ts']
      .map((part) => `'${part}'`)
      .join(' ');
    // As npm runs a script: `sh -c '<script>'`, with npm's variables.
    const shell = spawn('sh', ['-c', command], {
      env: {
        ...process.env,
        npm_lifecycle_event: 'serve',
        GATEWAY_PORT: '0',
        STORE_PORT: '0',
        GATEHOUSE_LOG_LEVEL: 'warn',
        GATEHOUSE_DATA_DIR: dataDir,
        PROXY_MASTER_KEY: TEST_MASTER_KEY,
        STORE_TOKEN: 'st-npm-parent-0123456789abcdef',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    shell.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    shell.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await expect.poll(() => output, { timeout: 20_000 }).toMatch(/gateway listening on (http:\/\/\S+)/);
    const gatewayUrl = /gateway listening on (http:\/\/\S+)/.exec(output)![1]!;
    expect(existsSync(join(dataDir, 'gatehouse.lock'))).toBe(true);

    shell.kill('SIGTERM');
    await expect
      .poll(() => output, { timeout: 10_000 })
      .toContain('gatehouse: the process that started it ended, finishing requests in flight');
    await expect.poll(() => output, { timeout: 10_000 }).toContain('gatehouse: stopped');
    await expect.poll(() => existsSync(join(dataDir, 'gatehouse.lock')), { timeout: 5_000 }).toBe(false);
    await expect(fetch(`${gatewayUrl}/healthz`)).rejects.toThrow();
  });
});
