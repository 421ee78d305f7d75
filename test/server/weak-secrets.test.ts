import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS, spawnHeadless } from '../support/headless-process.js';

const WEAK_MASTER = 'aaaaaaaaaaaaaaaa';
const WEAK_STORE = 'passwordpassword';
const WEAK_CI = 'ci-ci-ci-ci-ci-ci';
const WEAK_INLINE = '1212121212121212';
const CONFIG = `store:
  auth:
    tokens:
      - name: ci
        token_env: WEAK_CI_TOKEN
        verbs: [read]
        namespaces: ["*"]
      - name: inline
        token: "${WEAK_INLINE}"
        verbs: [read]
        namespaces: ["*"]
`;

/**
 * The start checked only a secret's length: `aaaaaaaaaaaaaaaa` or `passwordpassword` passed as a master
 * key or store token. Such secrets now get a warning naming the variable or key (never the value), at
 * start and in `--check`; the start goes on.
 */
describe('secrets of very few different characters', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-weak-secrets-'));
  const config = join(dir, 'gatehouse.yaml');
  writeFileSync(config, CONFIG);
  const env = {
    ...process.env,
    GATEHOUSE_DATA_DIR: join(dir, 'data'),
    GATEHOUSE_CONFIG: config,
    PROXY_MASTER_KEY: WEAK_MASTER,
    STORE_TOKEN: WEAK_STORE,
    WEAK_CI_TOKEN: WEAK_CI,
    GATEWAY_PORT: '0',
    STORE_PORT: '0',
    GATEHOUSE_LOG_LEVEL: 'warn',
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const expectWarnings = (output: string): void => {
    expect(output).toMatch(/PROXY_MASTER_KEY holds only 1 different characters/);
    expect(output).toMatch(/STORE_TOKEN holds only 7 different characters/);
    expect(output).toContain('store.auth.tokens[0].token_env (WEAK_CI_TOKEN) holds only 3 different characters');
    expect(output).toContain('store.auth.tokens[1].token holds only 2 different characters');
    for (const secret of [WEAK_MASTER, WEAK_STORE, WEAK_CI, WEAK_INLINE]) expect(output).not.toContain(secret);
  };

  it('are warned about, each by name, by --check, which still finds the configuration valid', async () => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [...SERVER_NODE_FLAGS, '--import', 'tsx', 'src/server/cli.ts', '--check'],
      { env, timeout: 25_000 },
    );
    expect(stdout).toContain('is valid');
    expectWarnings(stderr);
  });

  it('are warned about at start, and the servers start', async () => {
    const server = await spawnHeadless(env);
    try {
      expectWarnings(server.output());
      const answer = await fetch(`${server.gatewayUrl}/internal/api-keys`, {
        headers: { authorization: `Bearer ${WEAK_MASTER}` },
      });
      expect(answer.status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited();
    }
  });

  it('leave a random secret, and ten different characters, unmentioned', async () => {
    const { stderr } = await promisify(execFile)(
      process.execPath,
      [...SERVER_NODE_FLAGS, '--import', 'tsx', 'src/server/cli.ts', '--check'],
      {
        env: { ...env, GATEHOUSE_CONFIG: '', PROXY_MASTER_KEY: '1234567890123456', STORE_TOKEN: 'st-Zk3q9XbV1pLm7TqW' },
        timeout: 25_000,
      },
    );
    expect(stderr).not.toContain('different characters');
  });
});
