import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConfigError } from '../../src/server/config/load.js';
import { failedStart } from '../support/headless-process.js';
import { startTempServers } from '../support/temp-servers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// The master key opens every admin route; a store token, which opens less, was refused below 16 characters.
describe('PROXY_MASTER_KEY', () => {
  it('shorter than 16 characters stops the start, never showing it, before the data folder is touched', async () => {
    const base = mkdtempSync(join(tmpdir(), 'gatehouse-master-'));
    dirs.push(base);
    const dataDir = join(base, 'data');
    const failure = await failedStart({ GATEHOUSE_DATA_DIR: dataDir, PROXY_MASTER_KEY: 'admin' });
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toBe(
      'gatehouse: invalid environment:\n' +
        '  PROXY_MASTER_KEY: holds 5 characters; the master key needs at least 16, guessable otherwise (or leave it unset: Gatehouse then generates one in its data folder)\n',
    );
    expect(existsSync(dataDir)).toBe(false);
  });
});

// A header's bearer value ends at the first space: a secret holding one could never be presented, and
// every admin or store call was answered 'missing master key' / 'missing bearer token'.
describe('a master key or store token no Authorization header can carry', () => {
  const RULE = 'use only printable ASCII without spaces, which is all an Authorization: Bearer header carries';

  it('stops the start, naming the variable and never the value', async () => {
    const issues = async (env: NodeJS.ProcessEnv, overrides: Record<string, unknown> = {}) => {
      const error = (await startTempServers(overrides, env).catch((e: unknown) => e)) as ConfigError;
      expect(error.message).not.toContain('pass phrase');
      return error.issues;
    };
    expect(await issues({ PROXY_MASTER_KEY: 'my master pass phrase 2024' })).toEqual([
      `PROXY_MASTER_KEY: has a space or another character the master key cannot hold: ${RULE}`,
    ]);
    expect(await issues({ STORE_TOKEN: 'store pass phrase, tabbed\t' })).toEqual([
      `STORE_TOKEN: has a space or another character a store token cannot hold: ${RULE}`,
    ]);
    expect(
      await issues(
        { GATEHOUSE_TEST_CI_TOKEN: 'ci-token-0123456789-caf\u00e9' },
        { store: { auth: { tokens: [{ token_env: 'GATEHOUSE_TEST_CI_TOKEN', verbs: ['read'], namespaces: ['*'] }] } } },
      ),
    ).toEqual([
      `store.auth.tokens[0].token_env: GATEHOUSE_TEST_CI_TOKEN has a space or another character a store token cannot hold: ${RULE}`,
    ]);
    expect(
      await issues(
        {},
        {
          store: { auth: { tokens: [{ token: 'store pass phrase in the file', verbs: ['read'], namespaces: ['*'] }] } },
        },
      ),
    ).toEqual([
      'store.auth.tokens[0].token: store token must hold only printable ASCII without spaces, which is all an Authorization: Bearer header carries',
    ]);
  });
});

// A key file the user wrote and gave to clients must not be replaced unasked by a generated one.
describe('a master.key file holding a key that cannot be used', () => {
  it('stops the start naming the file, and leaves it as it was; an empty one is generated again', async () => {
    const base = mkdtempSync(join(tmpdir(), 'gatehouse-keyfile-'));
    dirs.push(base);
    const file = join(base, 'master.key');
    writeFileSync(file, 'sk-1234\n');
    const error = (await startTempServers({}, { GATEHOUSE_DATA_DIR: base, PROXY_MASTER_KEY: '' }).catch(
      (e: unknown) => e,
    )) as ConfigError;
    expect(error.issues).toEqual([
      `${file}: holds 7 characters; the master key needs at least 16, guessable otherwise (delete the file, and Gatehouse generates a new one)`,
    ]);
    expect(readFileSync(file, 'utf8')).toBe('sk-1234\n');

    writeFileSync(file, '');
    const servers = await startTempServers({}, { GATEHOUSE_DATA_DIR: base, PROXY_MASTER_KEY: '' });
    await servers.close();
    expect(servers.masterKey.source).toBe('generated');
    expect(readFileSync(file, 'utf8').trim()).toBe(servers.masterKey.value);
  });
});
