import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

interface Launch {
  readonly READY_LINE: string;
  readonly START_REFUSED_EXIT_CODE: number;
  launchDesktop(
    binary: string,
    args: string[],
    options: {
      cwd: string;
      env: NodeJS.ProcessEnv;
      onExit: (code: number) => void;
      onEarlyFailure: (code: number) => void;
    },
  ): unknown;
}

// A specifier TypeScript does not resolve: the launcher is a plain .mjs script.
const launcher = '../../scripts/launch.mjs';
const { launchDesktop, READY_LINE, START_REFUSED_EXIT_CODE } = (await import(launcher)) as Launch;

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-launch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in for Electron's binary: writes what it was given to a file, then does `body`. */
function fakeElectron(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    `#!${process.execPath}\nrequire('node:fs').writeFileSync(${JSON.stringify(`${path}.seen`)}, JSON.stringify({ runAsNode: process.env.ELECTRON_RUN_AS_NODE ?? null, args: process.argv.slice(2) }));\n${body}\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

/** How the launcher ended: through onExit (the app's own end) or onEarlyFailure (the headless fallback). */
function launch(binary: string, env: NodeJS.ProcessEnv = process.env): Promise<{ how: string; code: number }> {
  return new Promise((resolve) => {
    launchDesktop(binary, ['.'], {
      cwd: dir,
      env,
      onExit: (code) => resolve({ how: 'exit', code }),
      onEarlyFailure: (code) => resolve({ how: 'fallback', code }),
    });
  });
}

/**
 * `npm start` opens the desktop app where Electron can run. An Electron that fails before its window
 * opens (a missing system library, a sandbox it cannot set up) must leave the user with the headless
 * server, not nothing; an app that ran and then ended is its own business.
 */
describe('the desktop launcher', () => {
  it('falls back when Electron fails before its window opens, and never passes ELECTRON_RUN_AS_NODE', async () => {
    const binary = fakeElectron('crashes', 'process.exit(127);');
    expect(await launch(binary, { ...process.env, ELECTRON_RUN_AS_NODE: '1' })).toEqual({
      how: 'fallback',
      code: 127,
    });
    expect(JSON.parse(readFileSync(`${binary}.seen`, 'utf8'))).toEqual({ runAsNode: null, args: ['.'] });
  });

  it('falls back when the binary cannot be run at all', async () => {
    expect(await launch(join(dir, 'missing-electron'))).toEqual({ how: 'fallback', code: 1 });
  });

  it('leaves an app that opened its window to end as it will, whatever its status', async () => {
    const binary = fakeElectron(
      'opens-then-fails',
      `process.stdout.write(${JSON.stringify(`${READY_LINE} on http://127.0.0.1:1/ui/\n`)}, () => process.exit(4));`,
    );
    expect(await launch(binary)).toEqual({ how: 'exit', code: 4 });
    expect(await launch(fakeElectron('quits', 'process.exit(0);'))).toEqual({ how: 'exit', code: 0 });
  });

  it('takes a start the app refused (and already explained) as final', async () => {
    const binary = fakeElectron('refuses', `process.exit(${START_REFUSED_EXIT_CODE});`);
    expect(typeof START_REFUSED_EXIT_CODE).toBe('number');
    expect(await launch(binary)).toEqual({ how: 'exit', code: START_REFUSED_EXIT_CODE });
  });
});
