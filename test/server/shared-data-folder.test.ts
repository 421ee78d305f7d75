import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { failedStart } from '../support/headless-process.js';

// GATEHOUSE_DATA_DIR=/tmp is an easy mistake: the start made the folder private (0700), which locks
// every other user and service out of /tmp when the server runs as root.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function sharedFolder(mode: number): string {
  const base = mkdtempSync(join(tmpdir(), 'gatehouse-shared-'));
  dirs.push(base);
  const dir = join(base, 'shared');
  mkdirSync(dir);
  chmodSync(dir, mode);
  writeFileSync(join(dir, 'someone-elses-file'), '');
  return dir;
}

describe.skipIf(process.platform === 'win32')('a data folder others may write into', () => {
  for (const mode of [0o1777, 0o777]) {
    it(`(mode ${mode.toString(8)}) stops the start, naming it, and is left as it was`, async () => {
      const dir = sharedFolder(mode);
      const failure = await failedStart({ GATEHOUSE_DATA_DIR: dir });
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toBe(
        `gatehouse: failed to start: cannot use the data folder ${dir} (GATEHOUSE_DATA_DIR or server.data_dir): ` +
          `it is shared (mode ${mode.toString(8).padStart(4, '0')}: others may create files in it), and making it private (0700) ` +
          `would lock them out; choose a folder of Gatehouse's own, such as ${join(dir, 'gatehouse')}\n`,
      );
      expect(statSync(dir).mode & 0o7777).toBe(mode);
      expect(readdirSync(dir)).toEqual(['someone-elses-file']);
    });
  }

  it.skipIf(process.getuid?.() !== 0)('owned by another user stops the start even for root', async () => {
    const dir = sharedFolder(0o755);
    chownSync(dir, 65534, 65534);
    const failure = await failedStart({ GATEHOUSE_DATA_DIR: dir });
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain(
      `cannot use the data folder ${dir} (GATEHOUSE_DATA_DIR or server.data_dir): it belongs to another user (uid 65534)`,
    );
    expect(statSync(dir).mode & 0o7777).toBe(0o755);
    expect(readdirSync(dir)).toEqual(['someone-elses-file']);
  });
});
