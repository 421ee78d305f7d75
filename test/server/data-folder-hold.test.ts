import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { failedStart, spawnHeadless, type HeadlessProcess } from '../support/headless-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-hold-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function serve(dir: string): Promise<HeadlessProcess> {
  const server = await spawnHeadless({ GATEHOUSE_DATA_DIR: dir });
  cleanups.push(() => server.child.kill('SIGKILL'));
  return server;
}

/** The id of a process that has just ended (ids are handed out again only after many others). */
async function endedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  return child.pid!;
}

function inUse(dir: string, server: HeadlessProcess): string {
  return (
    `gatehouse: failed to start: the data folder ${dir} (GATEHOUSE_DATA_DIR or server.data_dir) is in use by ` +
    `another Gatehouse server, process ${server.child.pid} (gateway ${server.gatewayUrl}, store ${server.storeUrl}): ` +
    'stop that server first, or choose another folder for this one\n'
  );
}

describe('one data folder, one server', () => {
  it('refuses a second server on a held folder, naming the folder, the holder and its addresses', async () => {
    const dir = dataDir();
    const first = await serve(dir);
    const second = await failedStart({ GATEHOUSE_DATA_DIR: dir });
    expect(second?.code).toBe(1);
    expect(second?.stderr).toBe(inUse(dir, first));
    // The refused start touched nothing: the first still serves.
    expect((await fetch(`${first.gatewayUrl}/healthz`)).status).toBe(200);
  });

  it('holds the folder with a file only its owner reads while running, and a clean stop gives it back', async () => {
    const dir = dataDir();
    const server = await serve(dir);
    const file = join(dir, 'gatehouse.lock');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      pid: server.child.pid,
      gateway: server.gatewayUrl,
      store: server.storeUrl,
    });
    server.child.kill('SIGTERM');
    expect(await server.exited(), server.output()).toBe(0);
    expect(existsSync(file)).toBe(false);
    const again = await serve(dir);
    expect(again.output()).not.toContain('took over');
  });

  it('takes over from a server killed with SIGKILL, and says so in the log', async () => {
    const dir = dataDir();
    const first = await serve(dir);
    first.child.kill('SIGKILL');
    await first.exited();
    expect(existsSync(join(dir, 'gatehouse.lock')), 'a killed server cannot give its hold back').toBe(true);
    const next = await serve(dir);
    await expect
      .poll(() => next.output())
      .toContain(
        `took over the data folder ${dir} from process ${first.child.pid}, which is no longer running (it did not stop cleanly)`,
      );
    expect(JSON.parse(readFileSync(join(dir, 'gatehouse.lock'), 'utf8'))).toMatchObject({ pid: next.child.pid });
    expect(await failedStart({ GATEHOUSE_DATA_DIR: dir })).toMatchObject({ stderr: inUse(dir, next) });
  });

  it('lets exactly one of two starts at once have the folder', async () => {
    const dir = dataDir();
    const starts = await Promise.allSettled([serve(dir), serve(dir)]);
    const winners = starts.filter((start) => start.status === 'fulfilled');
    expect(winners).toHaveLength(1);
    const loser = starts.find((start) => start.status === 'rejected')!;
    expect(String(loser.reason)).toContain(`the data folder ${dir} (GATEHOUSE_DATA_DIR or server.data_dir) is in use`);
  });

  it('lets exactly one of two starts at once take over a hold left by a crash', async () => {
    const dir = dataDir();
    const pid = await endedPid();
    const stale = { id: 'crashed', pid, host: hostname(), process_start: null, started_at: '2026-01-01T00:00:00.000Z' };
    writeFileSync(join(dir, 'gatehouse.lock'), JSON.stringify({ ...stale, gateway: null, store: null }), {
      mode: 0o600,
    });
    const starts = await Promise.allSettled([serve(dir), serve(dir)]);
    const winners = starts.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []));
    expect(winners).toHaveLength(1);
    // Logged through the logger, which may reach stdout after the address lines.
    await expect.poll(() => winners[0]!.output()).toContain(`from process ${pid}, which is no longer running`);
  });

  it('is given back however the process exits, not only through a clean stop', async () => {
    const dir = dataDir();
    const module = (path: string): string => JSON.stringify(pathToFileURL(join(ROOT, path)).href);
    const script = [
      `const { loadConfig } = await import(${module('src/server/config/load.ts')});`,
      `const { startServers } = await import(${module('src/server/start.ts')});`,
      "const { existsSync } = await import('node:fs');",
      'await startServers(loadConfig().config);',
      `process.stdout.write(existsSync(${JSON.stringify(join(dir, 'gatehouse.lock'))}) ? 'held' : 'not held');`,
      'process.exit(3);',
    ].join('\n');
    const run = promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      env: { ...process.env, GATEHOUSE_DATA_DIR: dir, GATEWAY_PORT: '0', STORE_PORT: '0' },
    });
    const failure = await run.then(
      () => undefined,
      (error: { code?: number; stdout?: string; stderr?: string }) => error,
    );
    expect(failure?.code, failure?.stderr).toBe(3);
    expect(failure?.stdout).toBe('held');
    expect(existsSync(join(dir, 'gatehouse.lock'))).toBe(false);
  });
});
