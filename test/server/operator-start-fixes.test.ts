import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidConfiguration, loadConfig } from '../../src/server/config/load.js';
import { startServers } from '../../src/server/start.js';
import { storeTokenProblems } from '../../src/server/store/store-tokens.js';

const MASTER = 'gk-master-operator-fixes-0123456789';
const BUSY_PORT = 19410;

describe('a start that fails before listening', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-failed-start-'));
  let busy: Server;
  beforeAll(async () => {
    busy = createServer().listen(BUSY_PORT, '127.0.0.1');
    await once(busy, 'listening');
  });
  afterAll(async () => {
    busy.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = (dataDir: string) =>
    startServers(
      loadConfig({
        env: {
          GATEHOUSE_DATA_DIR: dataDir,
          GATEWAY_PORT: String(BUSY_PORT),
          STORE_PORT: '19411',
          GATEHOUSE_LOG_LEVEL: 'silent',
        },
      }).config,
      { env: { PROXY_MASTER_KEY: MASTER } },
    );

  it('removes the data folder it made, and the folders above it that it made', async () => {
    const made = join(dir, 'new', 'data');
    await expect(start(made)).rejects.toThrow(String(BUSY_PORT));
    expect(existsSync(join(dir, 'new'))).toBe(false);
  });

  it('leaves a folder that was there before, with what it holds', async () => {
    const existing = join(dir, 'existing');
    mkdirSync(join(existing, 'notes'), { recursive: true });
    await expect(start(existing)).rejects.toThrow(String(BUSY_PORT));
    expect(readdirSync(existing)).toContain('notes');
    expect(readdirSync(existing)).toContain('gatehouse.db');
  });
});

describe('the heading of a refused configuration', () => {
  it('names the file only when a problem is in it', () => {
    const file = '/etc/gatehouse.yaml';
    expect(invalidConfiguration(['GATEWAY_PORT must be a port number from 0 to 65535, got "x"'], file).message).toBe(
      'invalid environment:\n  GATEWAY_PORT must be a port number from 0 to 65535, got "x"',
    );
    expect(invalidConfiguration(['/srv/gh/secrets.key is missing, and ...'], file).message).toMatch(/^cannot start:\n/);
    expect(invalidConfiguration(['STORE_TOKEN: holds 3', '/srv/gh/master.key: empty'], file).message).toMatch(
      /^cannot start:\n/,
    );
    expect(invalidConfiguration(['GATEWAY_PORT must be ...', 'server.host: bad'], file).message).toMatch(
      /^invalid configuration in \/etc\/gatehouse\.yaml:\n/,
    );
    expect(() => loadConfig({ env: { GATEWAY_PORT: 'abc' } })).toThrowError(/^invalid environment:\n {2}GATEWAY_PORT/);
  });

  it('does not suggest setting GATEHOUSE_DATA_DIR for a value that came from it', () => {
    expect(() => loadConfig({ env: { GATEHOUSE_DATA_DIR: '$HOME/x' } })).toThrowError(
      "invalid environment:\n  GATEHOUSE_DATA_DIR (server.data_dir): '$HOME/x': variables are not expanded here; write the path (~/ is your home folder)",
    );
    expect(() => loadConfig({ env: {}, overrides: { server: { data_dir: '$HOME/x' } } })).toThrowError(
      /write the path \(~\/ is your home folder\), or set GATEHOUSE_DATA_DIR$/,
    );
  });
});

describe('a store token that is the master key', () => {
  it('is refused, saying it would open the admin API', () => {
    const { config } = loadConfig({ env: { GATEHOUSE_DATA_DIR: join(tmpdir(), 'gatehouse-unused') } });
    expect(storeTokenProblems(config, { STORE_TOKEN: MASTER, PROXY_MASTER_KEY: MASTER })).toEqual([
      "STORE_TOKEN: the same value as PROXY_MASTER_KEY, so whoever is given this store token also holds the master key, which opens the gateway's admin API (/internal/*); give the store its own token",
    ]);
    expect(storeTokenProblems(config, { STORE_TOKEN: `${MASTER}-store`, PROXY_MASTER_KEY: MASTER })).toEqual([]);
  });
});
