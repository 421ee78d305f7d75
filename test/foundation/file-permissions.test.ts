import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTempServers } from '../support/temp-servers.js';

const modeOf = (path: string): number => statSync(path).mode & 0o777;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The database holds provider keys in plain text: nobody but its owner may read it or its folder. */
describe.skipIf(process.platform === 'win32')('data folder and database file modes', () => {
  it('are 0700 and 0600 with the secrets from the environment, fixing looser modes left from before', async () => {
    const base = mkdtempSync(join(tmpdir(), 'gatehouse-modes-'));
    dirs.push(base);
    const dataDir = join(base, 'data');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    for (const name of ['gatehouse.db', 'master.key']) {
      writeFileSync(join(dataDir, name), name === 'master.key' ? 'gk-master-old-0123456789abcdef\n' : '');
      chmodSync(join(dataDir, name), 0o644);
    }
    // Secrets from the environment (startTempServers sets PROXY_MASTER_KEY and STORE_TOKEN).
    const servers = await startTempServers({}, { GATEHOUSE_DATA_DIR: dataDir });
    try {
      await fetch(`${servers.storeUrl}/healthz`);
      expect(modeOf(dataDir)).toBe(0o700);
      for (const name of ['gatehouse.db', 'gatehouse.db-wal', 'gatehouse.db-shm', 'master.key']) {
        expect(modeOf(join(dataDir, name)), name).toBe(0o600);
      }
    } finally {
      await servers.stop();
    }
  });

  it('are 0700 and 0600 in a fresh folder, generated secrets included', async () => {
    const base = mkdtempSync(join(tmpdir(), 'gatehouse-modes-'));
    dirs.push(base);
    const dataDir = join(base, 'fresh');
    const servers = await startTempServers({}, { GATEHOUSE_DATA_DIR: dataDir, PROXY_MASTER_KEY: '', STORE_TOKEN: '' });
    try {
      expect(modeOf(dataDir)).toBe(0o700);
      for (const name of ['gatehouse.db', 'gatehouse.db-wal', 'gatehouse.db-shm', 'master.key', 'store.token']) {
        expect(modeOf(join(dataDir, name)), name).toBe(0o600);
      }
    } finally {
      await servers.stop();
    }
  });
});
