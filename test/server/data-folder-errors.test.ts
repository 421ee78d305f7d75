import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { failedStart } from '../support/headless-process.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-folder-'));
  dirs.push(dir);
  return dir;
}

describe('a data folder that cannot be used', () => {
  it('whose database is not one names the file, the setting and what to do', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'gatehouse.db'), 'these bytes are not a SQLite database, not even its header\n');
    const failure = await failedStart({ GATEHOUSE_DATA_DIR: dir });
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toBe(
      `gatehouse: failed to start: cannot open the database ${join(dir, 'gatehouse.db')} (GATEHOUSE_DATA_DIR or server.data_dir): ` +
        'file is not a database: move it aside to start with an empty database, or choose another folder\n',
    );
  });

  it('below a file names the folder and the setting', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'state'), '');
    const failure = await failedStart({ GATEHOUSE_DATA_DIR: join(dir, 'state', 'gatehouse') });
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toMatch(
      new RegExp(
        `^gatehouse: failed to start: cannot use the data folder ${join(dir, 'state', 'gatehouse')} \\(GATEHOUSE_DATA_DIR or server\\.data_dir\\): ENOTDIR: .*: part of that path is a file, not a folder\\n$`,
      ),
    );
  });
});
