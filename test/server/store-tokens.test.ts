import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { failedStart, spawnHeadless } from '../support/headless-process.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-tokens-'));
  dirs.push(dir);
  return dir;
}

describe('store tokens from the environment', () => {
  it('a STORE_TOKEN shorter than the 16 characters a configured token needs stops the start, never showing it', async () => {
    const failure = await failedStart({ GATEHOUSE_DATA_DIR: tempDir(), STORE_TOKEN: 'abc' });
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toBe(
      'gatehouse: invalid environment:\n' +
        '  STORE_TOKEN: holds 3 characters; a store token needs at least 16, guessable otherwise\n',
    );
  });

  it('a token_env that is not set, or too short, is named with the file and the key, exiting 2', async () => {
    const dir = tempDir();
    const file = join(dir, 'gatehouse.yaml');
    writeFileSync(
      file,
      [
        'store:',
        '  auth:',
        '    tokens:',
        '      - { name: ci, token_env: GATEHOUSE_TEST_CI_TOKEN, verbs: [read], namespaces: ["*"] }',
        '      - { name: bot, token_env: GATEHOUSE_TEST_BOT_TOKEN, verbs: [read], namespaces: ["*"] }',
        '',
      ].join('\n'),
    );
    const failure = await failedStart({
      GATEHOUSE_CONFIG: file,
      GATEHOUSE_DATA_DIR: join(dir, 'data'),
      GATEHOUSE_TEST_BOT_TOKEN: 'short',
    });
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toBe(
      `gatehouse: invalid configuration in ${file}:\n` +
        '  store.auth.tokens[0].token_env: GATEHOUSE_TEST_CI_TOKEN is not set in the environment\n' +
        '  store.auth.tokens[1].token_env: GATEHOUSE_TEST_BOT_TOKEN holds 5 characters; a store token needs at least 16, guessable otherwise\n',
    );
  });
});

describe('a generated store token that configured tokens replace', () => {
  it('is named at start as no longer accepted, rather than failing with 401 unexplained', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'store.token'), 'st-generated-earlier-0123456789\n', { mode: 0o600 });
    const file = join(dir, 'gatehouse.yaml');
    writeFileSync(
      file,
      'store:\n  auth:\n    tokens:\n      - { name: ci, token: ci-token-0123456789abcdef, verbs: [read], namespaces: ["*"] }\n',
    );
    const server = await spawnHeadless({ GATEHOUSE_CONFIG: file, GATEHOUSE_DATA_DIR: dir });
    try {
      const refused = await fetch(`${server.storeUrl}/v1/namespaces`, {
        headers: { authorization: 'Bearer st-generated-earlier-0123456789' },
      });
      expect(refused.status).toBe(401);
      expect(server.output()).toContain(
        `store token: only the 1 in store.auth.tokens are accepted; ${join(dir, 'store.token')} (generated earlier) is not, unless STORE_TOKEN is set to it`,
      );
    } finally {
      server.child.kill('SIGKILL');
    }
  });
});
