import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/load.js';
import { holdDataFolder } from '../../src/server/data-folder/hold.js';
import { processStart } from '../../src/server/data-folder/process-identity.js';
import { startServers } from '../../src/server/start.js';
import { TEST_MASTER_KEY, TEST_STORE_TOKEN } from '../support/temp-servers.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-stale-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes a hold file as another server would have, with `fields` over a running process's record. */
function writeHold(dir: string, fields: Record<string, unknown>): string {
  const file = join(dir, 'gatehouse.lock');
  const record = { id: 'other', host: hostname(), process_start: null, started_at: '2026-01-01T00:00:00.000Z' };
  writeFileSync(file, JSON.stringify({ ...record, gateway: null, store: null, ...fields }), { mode: 0o600 });
  return file;
}

async function runningProcess(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
  await once(child, 'spawn');
  cleanups.push(() => child.kill('SIGKILL'));
  return child;
}

function start(dir: string, storePort = 0) {
  const env = {
    GATEHOUSE_DATA_DIR: dir,
    GATEWAY_PORT: '0',
    STORE_PORT: String(storePort),
    GATEHOUSE_LOG_LEVEL: 'silent',
    PROXY_MASTER_KEY: TEST_MASTER_KEY,
    STORE_TOKEN: TEST_STORE_TOKEN,
  };
  return startServers(loadConfig({ env }).config, { env });
}

describe('a hold copied along with its folder', () => {
  it('is taken over in the copy, while the server it names keeps the folder it was copied from', () => {
    const original = dataDir();
    const hold = holdDataFolder(original);
    cleanups.push(() => hold.release());
    // cp -a of a running server's folder: the hold file comes along, naming a live server.
    const copy = dataDir();
    writeFileSync(join(copy, 'gatehouse.lock'), readFileSync(join(original, 'gatehouse.lock')), { mode: 0o600 });
    const copied = holdDataFolder(copy);
    cleanups.push(() => copied.release());
    expect(copied.takeover).toMatch(
      /^took over the data folder .* from process \d+, which holds the folder this one was copied from, not this copy$/,
    );
    // The original is still held.
    expect(() => holdDataFolder(original)).toThrow(/in use/);
  });
});

describe('a hold whose process id runs', () => {
  it.runIf(process.platform === 'linux')(
    'is taken over when that process started after the hold was taken',
    async () => {
      const dir = dataDir();
      const other = await runningProcess();
      writeHold(dir, { pid: other.pid, process_start: 'an-earlier-boot/12345' });
      const hold = holdDataFolder(dir);
      cleanups.push(() => hold.release());
      expect(hold.takeover).toBe(
        `took over the data folder ${dir} from process ${other.pid}, which did not stop cleanly (its process id now belongs to another program)`,
      );
    },
  );

  it.runIf(process.platform === 'linux')('is refused when it is that very process, still starting', async () => {
    const dir = dataDir();
    const other = await runningProcess();
    writeHold(dir, { pid: other.pid, process_start: processStart(other.pid!) });
    expect(() => holdDataFolder(dir)).toThrowError(
      `the data folder ${dir} (GATEHOUSE_DATA_DIR or server.data_dir) is in use by another Gatehouse server, ` +
        `process ${other.pid} (still starting): stop that server first, or choose another folder for this one`,
    );
  });

  it('is refused, with how to clear it, when nothing says when its process started', async () => {
    const dir = dataDir();
    const other = await runningProcess();
    const file = writeHold(dir, { pid: other.pid, gateway: 'http://127.0.0.1:9611', store: 'http://127.0.0.1:9612' });
    expect(() => holdDataFolder(dir)).toThrowError(
      `is in use by another Gatehouse server, process ${other.pid} (gateway http://127.0.0.1:9611, store http://127.0.0.1:9612): ` +
        `stop that server first, or choose another folder for this one; if no Gatehouse server runs as process ${other.pid} any more, delete ${file}`,
    );
  });

  it('is refused when it is on another machine sharing the folder', () => {
    const dir = dataDir();
    writeHold(dir, { pid: process.pid, host: 'build-box' });
    expect(() => holdDataFolder(dir)).toThrowError(`process ${process.pid} on build-box (still starting)`);
  });

  it('is taken over when it names this process but is none of its holds (an earlier process had this id)', () => {
    const dir = dataDir();
    writeHold(dir, { pid: process.pid });
    const hold = holdDataFolder(dir);
    cleanups.push(() => hold.release());
    expect(hold.takeover).toContain(`from process ${process.pid}, which did not stop cleanly`);
  });
});

describe('a hold whose process has ended', () => {
  it.runIf(process.platform === 'linux')(
    'is taken over while its parent has not collected it yet (a zombie)',
    async () => {
      const dir = dataDir();
      // The forked child ends at once and its parent never waits for it. (A shell's background job was
      // sometimes collected by the shell itself before it exec'd into a process that would not.)
      const parent = spawn('python3', [
        '-c',
        'import os, sys, time\npid = os.fork()\nif pid == 0: os._exit(0)\nprint(pid, flush=True)\ntime.sleep(30)',
      ]);
      cleanups.push(() => parent.kill('SIGKILL'));
      const [line] = (await once(parent.stdout, 'data')) as [Buffer];
      const zombie = Number(line.toString().trim());
      await expect
        .poll(() => readFileSync(`/proc/${zombie}/stat`, 'utf8').split(') ')[1]?.[0], { timeout: 10_000 })
        .toBe('Z');
      writeHold(dir, { pid: zombie });
      const hold = holdDataFolder(dir);
      cleanups.push(() => hold.release());
      expect(hold.takeover).toBe(
        `took over the data folder ${dir} from process ${zombie}, which is no longer running (it did not stop cleanly)`,
      );
    },
  );
});

describe('a hold file that names no server', () => {
  it('is taken as another start writing it right now, then as left by a start cut off', () => {
    const dir = dataDir();
    const file = join(dir, 'gatehouse.lock');
    writeFileSync(file, '');
    expect(() => holdDataFolder(dir)).toThrowError(
      `the data folder ${dir} (GATEHOUSE_DATA_DIR or server.data_dir) is being taken by another Gatehouse server starting right now`,
    );
    const aMinuteAgo = new Date(Date.now() - 60_000);
    utimesSync(file, aMinuteAgo, aMinuteAgo);
    const hold = holdDataFolder(dir);
    cleanups.push(() => hold.release());
    expect(hold.takeover).toBe(`took over the data folder ${dir}: its hold file ${file} named no server`);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ pid: process.pid });
  });
});

describe('the hold of servers in this process', () => {
  it('refuses a second start on the folder in the same process, and frees it on close', async () => {
    const dir = dataDir();
    const first = await start(dir);
    await expect(start(dir)).rejects.toThrowError(
      `the data folder ${dir} (GATEHOUSE_DATA_DIR or server.data_dir) is in use by another Gatehouse server, ` +
        `process ${process.pid} (gateway ${first.gatewayUrl}, store ${first.storeUrl})`,
    );
    await first.close();
    const second = await start(dir);
    await second.close();
    expect(existsSync(join(dir, 'gatehouse.lock'))).toBe(false);
  });

  it('is given back when the start fails, so the desktop app can retry on free ports', async () => {
    const dir = dataDir();
    const blocker = createServer().listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    cleanups.push(() => new Promise((resolve) => blocker.close(resolve)));
    const port = (blocker.address() as { port: number }).port;
    await expect(start(dir, port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect(existsSync(join(dir, 'gatehouse.lock'))).toBe(false);
    const retried = await start(dir);
    await retried.close();
  });

  it('leaves a hold file another server wrote in its place', () => {
    const dir = dataDir();
    const hold = holdDataFolder(dir);
    const file = writeHold(dir, { pid: 1 });
    hold.release();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ id: 'other', pid: 1 });
  });
});
