import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnHeadless, type HeadlessProcess } from '../support/headless-process.js';

// A damaged data page (after a disk fault) is read only by the requests that reach it: the schema
// still reads, and writes to other pages still succeed. A backup must not copy it as if whole, and
// readiness must not call the service ready while requests keep failing on it.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const STATE = '/v1/state?namespace=ops&branch=main';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-damaged-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function serve(env: NodeJS.ProcessEnv): Promise<HeadlessProcess> {
  const server = await spawnHeadless(env);
  cleanups.push(() => server.child.kill('SIGKILL'));
  return server;
}

function storeRequest(server: HeadlessProcess, data: string, path: string, body?: unknown): Promise<Response> {
  const token = readFileSync(join(data, 'store.token'), 'utf8').trim();
  return fetch(`${server.storeUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Runs `npm run backup -- ...args` from `cwd` with `env` as the whole environment. */
async function backup(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return promisify(execFile)('npm', ['--prefix', ROOT, 'run', '-s', 'backup', '--', ...args], { cwd, env }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

/** The environment without a data folder or configuration of its own, so only the arguments name one. */
function plainEnvironment(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_DATA_HOME: join(home, '.local', 'share') };
  delete env.GATEHOUSE_DATA_DIR;
  delete env.GATEHOUSE_CONFIG;
  return env;
}

/** A data folder whose store holds a document, written by a server that has stopped. */
async function folderWithDocument(dir: string): Promise<string> {
  const data = join(dir, 'data');
  const server = await spawnHeadless({ GATEHOUSE_DATA_DIR: data });
  try {
    const applied = await storeRequest(server, data, '/v1/apply', {
      scope: { namespace: 'ops', branch: 'main' },
      documents: [{ key: 'runbook.md', content: 'restart the gateway' }],
      message: 'keep it',
    });
    expect(applied.status).toBe(200);
  } finally {
    server.child.kill('SIGKILL');
    await server.exited();
  }
  // Everything into the main file, as a stopped server leaves it, so the page overwritten below is the one read.
  const db = new Database(join(data, 'gatehouse.db'));
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return data;
}

/** Overwrites `table`'s root page (a data page, not the schema's) as a disk fault would: reading it is SQLITE_CORRUPT. */
function damageTable(file: string, table: string): void {
  const db = new Database(file, { readonly: true });
  const { rootpage } = db.prepare('SELECT rootpage FROM sqlite_schema WHERE name = ?').get(table) as {
    rootpage: number;
  };
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, Buffer.alloc(pageSize, 0xab), 0, pageSize, (rootpage - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
}

describe('npm run backup on a damaged database', () => {
  it('writes nothing, keeps the older backup even with --force, exits 1 naming the damaged table and .recover', async () => {
    const dir = tempDir();
    const data = await folderWithDocument(dir);
    const source = join(data, 'gatehouse.db');
    damageTable(source, 'store_blobs');
    const backups = join(dir, 'backups');
    mkdirSync(backups);
    const target = join(backups, 'gatehouse.db');
    writeFileSync(target, 'the last good backup');

    const result = await backup([target, '--data-dir', data, '--force'], dir, plainEnvironment(dir));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `backup: ${source} is damaged (PRAGMA quick_check: damaged pages in the table store_blobs)`,
    );
    expect(result.stderr).toContain(`sqlite3 "${source}" ".recover" | sqlite3 recovered.db`);
    expect(result.stdout).not.toContain('backup: wrote');
    expect(readFileSync(target, 'utf8')).toBe('the last good backup');
    expect(readdirSync(backups)).toEqual(['gatehouse.db']);
  }, 60_000);
});

describe('npm run backup --config', () => {
  it('backs up the data folder of the configuration file the server was started with, and says which', async () => {
    const dir = tempDir();
    const data = await folderWithDocument(dir);
    writeFileSync(join(dir, 'gatehouse.yaml'), `server:\n  data_dir: ${data}\n`);

    const result = await backup(['copy.db', '--config', 'gatehouse.yaml'], dir, plainEnvironment(dir));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `backup: data folder ${data} (configuration from ${join(dir, 'gatehouse.yaml')})\n`,
    );
    expect(result.stdout).toContain(`a consistent copy of ${join(data, 'gatehouse.db')}`);
    const copy = new Database(join(dir, 'copy.db'), { readonly: true });
    try {
      expect(copy.prepare("SELECT count(*) FROM store_blobs WHERE content = 'restart the gateway'").pluck().get()).toBe(
        1,
      );
    } finally {
      copy.close();
    }

    const both = await backup(
      ['other.db', '--config', 'gatehouse.yaml', '--data-dir', data],
      dir,
      plainEnvironment(dir),
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--config and --data-dir both name the data folder: give one');
  }, 60_000);
});

describe('/readyz after a request met a damaged page', () => {
  it('reports the database unavailable on both services, and keeps it so on later polls', async () => {
    const dir = tempDir();
    const data = await folderWithDocument(dir);
    damageTable(join(data, 'gatehouse.db'), 'store_blobs');
    const server = await serve({ GATEHOUSE_DATA_DIR: data });

    const read = await storeRequest(server, data, STATE);
    expect(read.status).toBe(503);
    expect(((await read.json()) as { error: { message: string } }).error.message).toContain('SQLITE_CORRUPT');

    for (let poll = 0; poll < 2; poll += 1)
      for (const url of [server.storeUrl, server.gatewayUrl]) {
        const readiness = await fetch(`${url}/readyz`);
        expect(readiness.status).toBe(503);
        expect(((await readiness.json()) as { checks: { database: string } }).checks.database).toBe('unavailable');
      }
    // The damage is where it was: reads of it still fail.
    expect((await storeRequest(server, data, STATE)).status).toBe(503);
  }, 60_000);
});
