import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

interface Launch {
  ensureElectronBinary(dir: string, options: { display: boolean }): { binary?: string; reason?: string };
}

// A specifier TypeScript does not resolve: the launcher is a plain .mjs script.
const launcher = '../../scripts/launch.mjs';
const { ensureElectronBinary } = (await import(launcher)) as Launch;

const root = mkdtempSync(join(tmpdir(), 'gatehouse-electron-download-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * Electron's install.js prints a failed download's stack and exits 1; the network's answer is only in
 * the error's cause. `npm start` says it on one line instead, so "no network" reads as such.
 */
describe("a failed download of Electron's binary", () => {
  it('is said on one line with its cause, without a stack trace', () => {
    const dir = join(root, 'refused');
    mkdirSync(dir);
    // As install.js fails when nothing answers: fetch's error, with the connection's error as its cause (port 19549 of this helper's range, where nothing listens).
    writeFileSync(
      join(dir, 'install.js'),
      `fetch('http://127.0.0.1:19549/electron.zip').catch((err) => { console.error(err.stack); process.exit(1); });\n`,
    );
    const { binary, reason } = ensureElectronBinary(dir, { display: true });
    expect(binary).toBeUndefined();
    expect(reason).toContain('fetch failed (ECONNREFUSED 127.0.0.1)');
    expect(reason).not.toMatch(/\n|\bat /);
    expect(reason).toContain('npx install-electron');
  });
});
