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
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-tokens-'));
  dirs.push(dir);
  return dir;
}

describe('store tokens from the environment', () => {
  it('a STORE_TOKEN shorter than the 16 characters a configured token needs stops the start, never showing it', async () => {
    const failure = await failedStart({ GATEHOUSE_DATA_DIR: tempDir(), STORE_TOKEN: 'abc' });
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toBe(
      'gatehouse: invalid configuration in defaults and environment:\n' +
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
        '      - { name: ci, token_env: GATEHOUSE_TEST_CI_TOKEN, verbs: [read] }',
        '      - { name: bot, token_env: GATEHOUSE_TEST_BOT_TOKEN, verbs: [read] }',
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
