import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

// The desktop main process (src/main/index.ts, through tsx) under the repository's `electron` stand-in
// (e2e/desktop/electron-stand-in.mjs): how a quit ends when the window has unsaved changes, and what a
// second launch says.

const root = resolve('.');
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-desktop-quit-'));
const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The app folder the stand-in reports: the migrations, and a page of its own where the built UI would
// be (unit tests run before the build, and the main process refuses to start without a UI).
const appPath = join(dir, 'app');
mkdirSync(join(appPath, 'out', 'renderer'), { recursive: true });
writeFileSync(join(appPath, 'out', 'renderer', 'index.html'), '<!doctype html><title>Gatehouse</title>\n');
symlinkSync(join(root, 'drizzle'), join(appPath, 'drizzle'));

const standIn = pathToFileURL(join(root, 'e2e', 'desktop', 'electron-stand-in.mjs')).href;

/** A loader hook for `electron`: the stand-in itself, or `module` (which may adjust it). */
function registerElectron(name: string, module: string = standIn): string {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(
    file,
    `import { register } from 'node:module';\nregister(${JSON.stringify(
      `data:text/javascript,${encodeURIComponent(
        `export async function resolve(specifier, context, next) { if (specifier === 'electron') return { url: ${JSON.stringify(module)}, shortCircuit: true }; return next(specifier, context); }`,
      )}`,
    )});\n`,
  );
  return file;
}

interface Main {
  readonly child: ChildProcess;
  output: string;
  readonly exited: Promise<number | null>;
}

function startMain(name: string, register: string = registerElectron('stand-in')): Main {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GATEHOUSE_DATA_DIR: join(dir, name),
    GATEWAY_PORT: '0',
    STORE_PORT: '0',
    GATEHOUSE_LOG_LEVEL: 'warn',
    GATEHOUSE_STAND_IN_APP_PATH: appPath,
  };
  for (const key of ['GATEHOUSE_CONFIG', 'INIT_CWD', 'npm_package_json']) delete env[key];
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', register, join(root, 'src', 'main', 'index.ts')],
    {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  started.push(child);
  const main: Main = { child, output: '', exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))) };
  child.stdout!.on('data', (chunk: Buffer) => (main.output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (main.output += chunk.toString('utf8')));
  return main;
}

async function until(main: Main, text: string): Promise<void> {
  await expect.poll(() => main.output, { timeout: 60_000, interval: 100 }).toContain(text);
}

/** The window open on a page with unsaved changes. */
async function withUnsavedChanges(name: string): Promise<Main> {
  const main = startMain(name);
  await until(main, 'gatehouse: desktop window open on');
  main.child.send({ type: 'unsaved', value: true });
  // A signal is not queued behind the message: wait until the window has the unsaved changes.
  await until(main, '"event":"unsaved"');
  return main;
}

describe('quitting the desktop app with unsaved changes', () => {
  it('asks, says so on the terminal, and a second quit closes the window and quits', async () => {
    const main = await withUnsavedChanges('quit-twice');
    main.child.send('quit');
    await until(main, '"event":"messageBox"');
    await until(main, 'gatehouse: waiting for the answer to "Discard unsaved changes?" in the window');
    main.child.send('quit');
    expect(await main.exited, main.output).toBe(0);
    expect(main.output).toContain('"event":"window.destroy"');
    expect(main.output).toContain('quit again: closing the window without asking');
  });

  it('quits on SIGTERM without asking', async () => {
    const main = await withUnsavedChanges('sigterm');
    main.child.kill('SIGTERM');
    expect(await main.exited, main.output).toBe(0);
    expect(main.output).toContain('"event":"window.destroy"');
    expect(main.output).not.toContain('"event":"messageBox"');
    expect(main.output).toContain('SIGTERM received: closing the window without asking');
  });
});

describe('a second launch', () => {
  it('says it handed over to the running app', async () => {
    const held = join(dir, 'lock-held.mjs');
    writeFileSync(
      held,
      `import { app } from ${JSON.stringify(standIn)};\napp.requestSingleInstanceLock = () => false;\nexport * from ${JSON.stringify(standIn)};\n`,
    );
    const main = startMain('second', registerElectron('register-lock-held', pathToFileURL(held).href));
    expect(await main.exited, main.output).toBe(0);
    expect(main.output).toContain('gatehouse: already running: showed its window instead of starting another');
  });
});
