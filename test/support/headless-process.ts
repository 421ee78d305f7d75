import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The Node flags `npm run serve` and `npm start` give the server process. */
export const SERVER_NODE_FLAGS: readonly string[] = JSON.parse(
  readFileSync(new URL('../../scripts/server-node-flags.json', import.meta.url), 'utf8'),
);

/** A running `npm run serve` process, with the addresses it printed. */
export interface HeadlessProcess {
  readonly child: ChildProcess;
  readonly gatewayUrl: string;
  readonly storeUrl: string;
  /** Everything printed so far on stdout and stderr. */
  output(): string;
  /** Waits for exit and returns the exit code (null when killed by a signal). */
  exited(): Promise<number | null>;
}

/** The checkout, so the command can start from any working directory. */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Spawns the headless command as one Node process (so signals reach the server itself), in `cwd` if given. */
export async function spawnHeadless(
  env: NodeJS.ProcessEnv,
  timeoutMs = 20_000,
  cwd: string = ROOT,
): Promise<HeadlessProcess> {
  const tsx = join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs');
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', tsx, join(ROOT, 'src/server/cli.ts')], {
    cwd,
    env: { ...process.env, GATEWAY_PORT: '0', STORE_PORT: '0', GATEHOUSE_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const gateway = /gateway listening on (https?:\/\/\S+)/.exec(text)?.[1];
    const store = /store listening on (https?:\/\/\S+)/.exec(text)?.[1];
    if (gateway && store)
      return { child, gatewayUrl: gateway, storeUrl: store, output: () => text, exited: () => exit };
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`headless server did not start:\n${text}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Runs the headless command with a configuration that must stop it, on free ports, and returns how
 * it failed (undefined if it exited 0 within `timeoutMs`).
 */
export async function failedStart(
  env: NodeJS.ProcessEnv,
  // A refused start ends in a second or two; on a loaded machine loading tsx alone can take ten.
  timeoutMs = 25_000,
  args: readonly string[] = [],
): Promise<{ code?: number; stderr?: string } | undefined> {
  const command = [...SERVER_NODE_FLAGS, '--import', 'tsx', 'src/server/cli.ts', ...args];
  const run = promisify(execFile)(process.execPath, command, {
    env: { ...process.env, GATEWAY_PORT: '0', STORE_PORT: '0', GATEHOUSE_LOG_LEVEL: 'warn', ...env },
    timeout: timeoutMs,
  });
  return run.then(
    () => undefined,
    (error: { code?: number; stderr?: string }) => error,
  );
}

/** The first JSON log line the server printed that matches, waiting a moment for it to be written. */
export async function waitForLogLine(
  server: HeadlessProcess,
  matches: (entry: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  for (let tries = 0; tries < 50; tries += 1) {
    for (const text of server.output().split('\n')) {
      if (!text.startsWith('{')) continue;
      const entry = JSON.parse(text) as Record<string, unknown>;
      if (matches(entry)) return entry;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no such log line in:\n${server.output()}`);
}

/** A key issued by the server's admin API (`POST /internal/api-keys` with `body`), as a user would. */
export async function issueKey(
  gatewayUrl: string,
  masterKey: string,
  body: Record<string, unknown> = {},
  init: Record<string, unknown> = {},
): Promise<{ id: string; key: string }> {
  const issued = await fetch(`${gatewayUrl}/internal/api-keys`, {
    ...init,
    method: 'POST',
    headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (issued.status !== 201) throw new Error(`issuing a key answered ${issued.status}: ${await issued.text()}`);
  return (await issued.json()) as { id: string; key: string };
}
