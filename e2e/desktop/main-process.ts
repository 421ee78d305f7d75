import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from '@playwright/test';

// The built desktop main process (out/main/index.js) under Node, with the `electron` stand-in beside
// this file: what it reported, what it printed, and the test's hands on it (IPC as the renderer, the
// user's answers to its message boxes).

/** The repository's root. */
export const root = fileURLToPath(new URL('../..', import.meta.url));

/** One thing the main process asked of Electron, as the stand-in reported it. */
export interface Reported {
  readonly event: string;
  readonly [detail: string]: unknown;
}

/** The main process, with what the stand-in reported and what it printed. */
export interface MainProcess {
  readonly child: ChildProcess;
  readonly reported: Reported[];
  output: string;
  readonly exited: Promise<number | null>;
}

/** The line the main process prints once its window is open, with the address it opened. */
export const READY = /gatehouse: desktop window open on (\S+)/;

/**
 * Starts the main process on `dataDir`, on free ports unless `env` says otherwise; `env` values of
 * `undefined` remove a variable.
 */
export function startMain(
  dataDir: string,
  configPath: string | undefined,
  env: Record<string, string | undefined> = {},
  cwd: string = root,
): MainProcess {
  const merged: Record<string, string | undefined> = {
    ...process.env,
    GATEHOUSE_DATA_DIR: dataDir,
    GATEHOUSE_CONFIG: configPath,
    GATEWAY_PORT: '0',
    STORE_PORT: '0',
    GATEHOUSE_LOG_LEVEL: 'warn',
    GATEHOUSE_STAND_IN_APP_PATH: root,
    // Where `npm start` was typed: only what a test sets.
    INIT_CWD: undefined,
    npm_package_json: undefined,
    ...env,
  };
  const childEnv = Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined));
  const child = spawn(
    process.execPath,
    ['--import', `${root}e2e/desktop/register-electron-stand-in.mjs`, `${root}out/main/index.js`],
    { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
  );
  const main: MainProcess = {
    child,
    reported: [],
    output: '',
    exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))),
  };
  const read = (chunk: Buffer): void => {
    main.output += chunk.toString('utf8');
    main.reported.splice(
      0,
      main.reported.length,
      ...main.output
        .split('\n')
        .filter((line) => line.startsWith('stand-in: '))
        .map((line) => JSON.parse(line.slice('stand-in: '.length)) as Reported),
    );
  };
  child.stdout!.on('data', read);
  child.stderr!.on('data', read);
  return main;
}

/** The address the window opened, once the main process says it is open. */
export async function windowOpen(main: MainProcess): Promise<string> {
  await expect.poll(() => main.output, { timeout: 30_000 }).toMatch(READY);
  return READY.exec(main.output)![1]!;
}

/** The reports of one kind so far. */
export function reportsOf(main: MainProcess, event: string): Reported[] {
  return main.reported.filter((r) => r.event === event);
}

let invocations = 0;

/** Calls an IPC channel as a page at `url` would through the preload; rejects with the handler's error. */
export function invoke(main: MainProcess, channel: string, url: string, args: unknown[] = []): Promise<unknown> {
  const id = ++invocations;
  return new Promise((resolve, reject) => {
    const listener = (message: { type?: string; id?: number; result?: unknown; error?: string }): void => {
      if (message.type !== 'invoked' || message.id !== id) return;
      main.child.off('message', listener);
      if (message.error !== undefined) reject(new Error(message.error));
      else resolve(message.result);
    };
    main.child.on('message', listener);
    main.child.send({ type: 'invoke', id, channel, url, args });
  });
}

/** The user's answer to the message box on screen: the index of the button they chose. */
export function answer(main: MainProcess, response: number): void {
  main.child.send({ type: 'answer', response });
}
