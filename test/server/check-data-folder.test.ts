import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { failedStart } from '../support/headless-process.js';

// `--check` said "valid" for a data folder the start then refused: it reads the folder now, as the
// start judges it, and still writes nothing.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(mode: number): string {
  const base = mkdtempSync(join(tmpdir(), 'gatehouse-check-'));
  dirs.push(base);
  const dir = join(base, 'data');
  mkdirSync(dir);
  chmodSync(dir, mode);
  writeFileSync(join(dir, 'someone-elses-file'), '');
  return dir;
}

const SETTING = 'GATEHOUSE_DATA_DIR or server.data_dir';

describe.skipIf(process.platform === 'win32')('--check on the data folder', () => {
  it('refuses a shared folder (mode 1777) as the start does, exit 2, leaving it as it was', async () => {
    const dir = folder(0o1777);
    const failure = await failedStart({ GATEHOUSE_DATA_DIR: dir }, 25_000, ['--check']);
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain(
      `cannot use the data folder ${dir} (${SETTING}): it is shared (mode 1777: others may create files in it), and making it private (0700) ` +
        `would lock them out; choose a folder of Gatehouse's own, such as ${join(dir, 'gatehouse')}`,
    );
    expect(statSync(dir).mode & 0o7777).toBe(0o1777);
    expect(readdirSync(dir)).toEqual(['someone-elses-file']);
  }, 30_000);

  it.skipIf(process.getuid?.() !== 0)(
    'refuses a folder owned by another user, even for root',
    async () => {
      const dir = folder(0o755);
      chownSync(dir, 65534, 65534);
      const failure = await failedStart({ GATEHOUSE_DATA_DIR: dir }, 25_000, ['--check']);
      expect(failure?.code).toBe(2);
      expect(failure?.stderr).toContain(
        `cannot use the data folder ${dir} (${SETTING}): it belongs to another user (uid 65534)`,
      );
      expect(readdirSync(dir)).toEqual(['someone-elses-file']);
    },
    30_000,
  );

  it('refuses a path through a file, and accepts a folder still to be made, creating nothing', async () => {
    const base = folder(0o700);
    const file = join(base, 'someone-elses-file');
    const through = await failedStart({ GATEHOUSE_DATA_DIR: join(file, 'data') }, 25_000, ['--check']);
    expect(through?.code).toBe(2);
    expect(through?.stderr).toContain(
      `cannot use the data folder ${join(file, 'data')} (${SETTING}): part of that path is a file, not a folder`,
    );
    expect(await failedStart({ GATEHOUSE_DATA_DIR: join(base, 'new', 'data') }, 25_000, ['--check'])).toBeUndefined();
    expect(readdirSync(base)).toEqual(['someone-elses-file']);
  }, 60_000);
});
