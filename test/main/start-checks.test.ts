import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

// What `npm start` (scripts/start.mjs, run as npm runs it) checks before it builds or downloads anything.

const root = resolve('.');
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-start-checks-'));
const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A `bin` folder whose `npx` (the build's runner) leaves `npx-ran` beside it and fails. */
function recordingNpx(): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    join(bin, 'npx'),
    `#!/bin/sh\ntouch ${JSON.stringify(join(dir, 'npx-ran'))}\necho "npx $*" >&2\nexit 1\n`,
  );
  chmodSync(join(bin, 'npx'), 0o755);
  return bin;
}

interface Run {
  readonly child: ChildProcess;
  output: string;
  readonly exited: Promise<number | null>;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Run {
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  const result: Run = {
    child,
    output: '',
    exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))),
  };
  child.stdout.on('data', (chunk: Buffer) => (result.output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (result.output += chunk.toString('utf8')));
  return result;
}

/** The environment `npm start` typed in `dir` gets, on free ports and `dataDir`. */
function env(dataDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = {
    ...process.env,
    GATEHOUSE_DATA_DIR: dataDir,
    GATEWAY_PORT: '0',
    STORE_PORT: '0',
    GATEHOUSE_LOG_LEVEL: 'warn',
    INIT_CWD: dir,
    npm_package_json: join(root, 'package.json'),
    ...extra,
  };
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  return merged;
}

const npmStart = (args: string[], environment: NodeJS.ProcessEnv): Run =>
  run(process.execPath, [join(root, 'scripts', 'start.mjs'), ...args], environment);

async function until(read: () => string, pattern: RegExp): Promise<RegExpExecArray> {
  await expect.poll(read, { timeout: 60_000, interval: 100 }).toMatch(pattern);
  return pattern.exec(read())!;
}

describe('npm start, before it builds', () => {
  it('stops without building when a server already has the data folder, naming it and its UI', async () => {
    const dataDir = join(dir, 'data-busy');
    const first = run(
      process.execPath,
      ['--import', 'tsx', join(root, 'src', 'server', 'cli.ts')],
      env(dataDir, { GATEHOUSE_HEADLESS: '1' }),
    );
    const [, uiUrl] = await until(() => first.output, /ui (?:available at|not built: .* at) (http\S+?)\)?\n/);

    const bin = recordingNpx();
    const second = npmStart([], env(dataDir, { GATEHOUSE_HEADLESS: '1', PATH: `${bin}:${process.env.PATH}` }));
    expect(await second.exited).not.toBe(0);
    expect(existsSync(join(dir, 'npx-ran'))).toBe(false);
    expect(second.output).toContain(`already running (process ${first.child.pid}, UI at ${uiUrl}`);
    // The first one still serves its UI.
    expect(first.child.exitCode).toBeNull();
  });

  it('starts headless at once when DISPLAY names an X server that is not running', async () => {
    const display = ':7391';
    expect(existsSync('/tmp/.X11-unix/X7391')).toBe(false);
    const start = npmStart(
      ['--no-build'],
      env(join(dir, 'data-display'), { DISPLAY: display, WAYLAND_DISPLAY: undefined, GATEHOUSE_HEADLESS: undefined }),
    );
    await until(() => start.output, /gateway listening on /);
    expect(start.output).toContain(`starting headless (DISPLAY=${display} names no running X server)`);
    expect(start.output).not.toContain("downloading Electron's binary");
    start.child.kill('SIGTERM');
    await start.exited;
  });

  it('promises no UI address before the configuration is read', async () => {
    writeFileSync(join(dir, 'no-ui.yaml'), 'server:\n  ui: false\n');
    const start = npmStart(
      ['--no-build', '--config', 'no-ui.yaml'],
      env(join(dir, 'data-no-ui'), { GATEHOUSE_HEADLESS: '1' }),
    );
    await until(() => start.output, /ui off \(server\.ui is false\)/);
    expect(start.output).toContain('starting headless (GATEHOUSE_HEADLESS is set)');
    expect(start.output).not.toContain('open the UI address');
    start.child.kill('SIGTERM');
    await start.exited;
  });
});
