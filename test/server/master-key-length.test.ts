import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { failedStart } from '../support/headless-process.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// The master key opens every admin route; a store token, which opens less, is refused below 16 characters.
describe('PROXY_MASTER_KEY', () => {
  it('shorter than 16 characters stops the start, never showing it, before the data folder is touched', async () => {
    const base = mkdtempSync(join(tmpdir(), 'gatehouse-master-'));
    dirs.push(base);
    const dataDir = join(base, 'data');
    const failure = await failedStart({ GATEHOUSE_DATA_DIR: dataDir, PROXY_MASTER_KEY: 'admin' });
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toBe(
      'gatehouse: invalid configuration in defaults and environment:\n' +
        '  PROXY_MASTER_KEY: holds 5 characters; the master key needs at least 16, guessable otherwise\n',
    );
    expect(existsSync(dataDir)).toBe(false);
  });
});
