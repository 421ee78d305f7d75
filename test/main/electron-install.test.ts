import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

interface EnsureResult {
  readonly binary?: string;
  readonly reason?: string;
}

interface Launch {
  ensureElectronBinary(dir: string, options: { display: boolean; timeoutMs?: number }): EnsureResult;
}

// A specifier TypeScript does not resolve: the launcher is a plain .mjs script.
const launcher = '../../scripts/launch.mjs';
const { ensureElectronBinary } = (await import(launcher)) as Launch;

const root = mkdtempSync(join(tmpdir(), 'gatehouse-electron-install-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** An `electron` package folder without its binary, whose install.js does `body` (and leaves a mark). */
function electronPackage(name: string, body: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'install.js'),
    `const fs = require('node:fs'); const path = require('node:path');\nfs.writeFileSync(path.join(__dirname, 'ran'), '');\n${body}\n`,
  );
  return dir;
}

/** What install.js does when the download works: the binary in dist/, named by path.txt. */
const downloads = `fs.mkdirSync(path.join(__dirname, 'dist')); fs.writeFileSync(path.join(__dirname, 'dist', 'electron'), ''); fs.writeFileSync(path.join(__dirname, 'path.txt'), 'electron');`;

/**
 * Electron 45 downloads its binary on first use, not at install: `npm start` on a machine with a
 * display and a network must fetch it rather than never opening the window, and must never try
 * where there is no display (tests, CI).
 */
describe("npm start and Electron's binary", () => {
  it('installs the missing binary where there is a display', () => {
    const dir = electronPackage('works', downloads);
    expect(ensureElectronBinary(dir, { display: true })).toEqual({ binary: join(dir, 'dist', 'electron') });
  });

  it('never tries without a display', () => {
    const dir = electronPackage('no-display', downloads);
    expect(ensureElectronBinary(dir, { display: false })).toEqual({ reason: "Electron's binary is not installed" });
    expect(existsSync(join(dir, 'ran'))).toBe(false);
  });

  it('says how to install it by hand when the download fails', () => {
    const dir = electronPackage('fails', 'process.exit(1);');
    const { binary, reason } = ensureElectronBinary(dir, { display: true });
    expect(binary).toBeUndefined();
    expect(reason).toContain('exited with status 1');
    expect(reason).toContain('npx install-electron');
  });

  it('gives up on a download that does not finish in time', () => {
    const dir = electronPackage('hangs', 'setInterval(() => {}, 1000);');
    const at = Date.now();
    const { reason } = ensureElectronBinary(dir, { display: true, timeoutMs: 1000 });
    expect(Date.now() - at).toBeLessThan(5000);
    expect(reason).toContain('did not finish within 1 s');
  });
});
