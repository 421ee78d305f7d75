import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, expect } from 'vitest';
import { spawnHeadless, type HeadlessProcess } from './headless-process.js';

/** The checkout, where `npm run` finds the scripts. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The store scope the data-folder suites write their one document to. */
export const SCOPE = { namespace: 'ops', branch: 'main' };

/** How a command ended, as `npm run` printed it. */
export type Run = { code: number; stdout: string; stderr: string };

/** Runs `npm run <script> -- ...args` from `cwd`, as a user types it. */
export function npmRun(
  script: 'backup' | 'restore',
  args: readonly string[],
  cwd = ROOT,
  env: NodeJS.ProcessEnv = {},
): Promise<Run> {
  const options = { cwd, env: { ...process.env, ...env } };
  return promisify(execFile)('npm', ['--prefix', ROOT, 'run', '-s', script, '--', ...args], options).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: Run) => error,
  );
}

/**
 * Temporary data folders and headless servers on them, all removed or killed after each test (SIGKILL,
 * so nothing is checkpointed), with the store calls the backup and restore suites make.
 */
export function dataFolderSuite(prefix: string) {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const tempDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };
  const serve = async (dataDir: string): Promise<HeadlessProcess> => {
    const server = await spawnHeadless({ GATEHOUSE_DATA_DIR: dataDir });
    cleanups.push(() => server.child.kill('SIGKILL'));
    return server;
  };
  /** Sends a store request with the folder's generated full-access token. */
  const store = (server: HeadlessProcess, dataDir: string, path: string, body?: unknown): Promise<Response> => {
    const token = readFileSync(join(dataDir, 'store.token'), 'utf8').trim();
    return fetch(`${server.storeUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  };
  const applyDocument = async (server: HeadlessProcess, dataDir: string, content: string, message = content) => {
    const response = await store(server, dataDir, '/v1/apply', {
      scope: SCOPE,
      documents: [{ key: 'runbook.md', content }],
      message,
    });
    expect(response.status).toBe(200);
  };
  const stateOf = (server: HeadlessProcess, dataDir: string): Promise<Response> =>
    store(server, dataDir, `/v1/state?namespace=${SCOPE.namespace}&branch=${SCOPE.branch}`);
  return { cleanups, tempDir, serve, store, applyDocument, stateOf };
}
