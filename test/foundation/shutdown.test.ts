import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { failedStart, spawnHeadless } from '../support/headless-process.js';
import { TEST_MASTER_KEY, TEST_STORE_TOKEN } from '../support/temp-servers.js';

const auth = { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' };
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function apply(storeUrl: string, i: number): Promise<number | undefined> {
  try {
    const response = await fetch(`${storeUrl}/v1/apply`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        scope: { namespace: 'shutdown', branch: 'main' },
        documents: [{ key: `doc-${i}`, content: `value ${i}` }],
        message: `write ${i}`,
      }),
    });
    if (response.status !== 200) return undefined;
    return ((await response.json()) as { revision: number }).revision;
  } catch {
    return undefined; // refused after the listener closed: never acknowledged, so never promised
  }
}

// Each test starts the server as a child process: on a loaded machine that is slow.
describe('headless command shutdown', { timeout: 90_000 }, () => {
  it('on SIGTERM during writes, exits 0 and keeps every acknowledged revision', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-shutdown-'));
    dirs.push(dataDir);
    const env = { GATEHOUSE_DATA_DIR: dataDir, PROXY_MASTER_KEY: TEST_MASTER_KEY, STORE_TOKEN: TEST_STORE_TOKEN };
    const first = await spawnHeadless(env);

    const acknowledged = new Map<number, number>();
    let next = 0;
    let stop = false;
    const worker = async (): Promise<void> => {
      while (!stop && next < 2000) {
        const i = next++;
        const revision = await apply(first.storeUrl, i);
        if (revision === undefined) return;
        acknowledged.set(i, revision);
      }
    };
    let running = 8;
    const workers = Array.from({ length: running }, () => worker().finally(() => running--));
    while (acknowledged.size < 100 && running > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(acknowledged.size, 'writes were acknowledged before the signal').toBeGreaterThanOrEqual(100);
    first.child.kill('SIGTERM');
    const code = await first.exited();
    stop = true;
    await Promise.all(workers);
    expect(code, first.output()).toBe(0);
    expect(first.output()).toContain('stopped');

    const second = await spawnHeadless(env);
    try {
      const response = await fetch(`${second.storeUrl}/v1/state?namespace=shutdown&branch=main`, { headers: auth });
      const state = (await response.json()) as { revision: number; objects: Record<string, string> };
      for (const [i] of acknowledged) expect(state.objects[`doc-${i}`]).toBe(`value ${i}`);
      expect(state.revision).toBeGreaterThanOrEqual(Math.max(...acknowledged.values()));
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited()).toBe(0);
    }
  });

  it('does not wait on connections without a request, nor on the live traffic stream', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-quiet-'));
    dirs.push(dataDir);
    const server = await spawnHeadless({
      GATEHOUSE_DATA_DIR: dataDir,
      PROXY_MASTER_KEY: TEST_MASTER_KEY,
      STORE_TOKEN: TEST_STORE_TOKEN,
    });
    // Browsers open such sockets ahead of use; Node's own idle-connection closing skips them.
    const quiet: Socket[] = [server.gatewayUrl, server.storeUrl].map((url) =>
      connect(Number(new URL(url).port), '127.0.0.1'),
    );
    for (const socket of quiet) socket.on('error', () => undefined);
    const stream = await fetch(`${server.gatewayUrl}/internal/traffic/stream`, {
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
    });
    expect(stream.status).toBe(200);
    const started = Date.now();
    server.child.kill('SIGTERM');
    const code = await server.exited();
    expect(code, server.output()).toBe(0);
    // Well under the 10 s shutdown timeout, which would otherwise end the process with exit 1.
    expect(Date.now() - started).toBeLessThan(5000);
    for (const socket of quiet) socket.destroy();
    await stream.body?.cancel().catch(() => undefined);
  });

  it('refuses to start with an invalid configuration and names the key', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-badconf-'));
    dirs.push(dataDir);
    await expect(spawnHeadless({ GATEHOUSE_DATA_DIR: dataDir, GATEWAY_PORT: 'eighty' }, 10_000)).rejects.toThrow(
      /GATEWAY_PORT must be a port number/,
    );
  });

  it('refuses to start, exiting 2, with deployments the gateway could not route, naming the file and each key', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-baddeploy-'));
    dirs.push(dataDir);
    const file = join(dataDir, 'gatehouse.yaml');
    writeFileSync(
      file,
      'deployments:\n  - { id: a, model: m, provider: bogus }\n  - { id: a, model: m, provider: demo }\n',
    );
    const failure = await failedStart({ GATEHOUSE_CONFIG: file, GATEHOUSE_DATA_DIR: dataDir });
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain(`gatehouse: invalid configuration in ${file}:\n`);
    expect(failure?.stderr).toContain("  deployments[1].id 'a' is already used by deployments[0]");
    expect(failure?.stderr).toMatch(/ {2}deployments\[0\]\.provider must be one of anthropic, demo, .*, got 'bogus'/);
  });

  it("names the deployments' mistakes in the same round as the rest of the file's", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-badall-'));
    dirs.push(dataDir);
    const file = join(dataDir, 'gatehouse.yaml');
    writeFileSync(
      file,
      'pii:\n  mode: maybe\ndeployments:\n  - { model: m, provider: opneai, base_url: "http://127.0.0.1:9/v1" }\n',
    );
    const failure = await failedStart({ GATEHOUSE_CONFIG: file, GATEHOUSE_DATA_DIR: dataDir });
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain("  pii.mode: 'maybe' is not one of off, mask, redact, block\n");
    expect(failure?.stderr).toMatch(
      / {2}deployments\[0\]\.provider must be one of .*got 'opneai' \(did you mean openai\?\)/,
    );
  });
});
