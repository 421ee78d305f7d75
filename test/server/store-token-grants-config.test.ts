import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config/load.js';
import { startTempServers } from '../support/temp-servers.js';

// Store token grants that could never do what they say: refused at start rather than silently
// reaching nothing (a namespace pattern no request can match) or shadowed (a token listed twice).

const SHARED = 'st-shared-token-0123456789abcdef';

function problemsOf(tokens: unknown[]): readonly string[] {
  try {
    loadConfig({ env: {}, overrides: { store: { auth: { tokens } } } });
  } catch (error) {
    return (error as ConfigError).issues;
  }
  return [];
}

describe('store.auth.tokens[] grants', () => {
  it('must be written out: an entry without verbs or namespaces is refused, not given everything', () => {
    expect(problemsOf([{ name: 'agent7', token: SHARED }])).toEqual([
      'store.auth.tokens[0].verbs: is required: list what the token may do, such as [read] or [read, write] (admin adds gc and branch deletion)',
      'store.auth.tokens[0].namespaces: is required: list the namespaces the token may use, such as ["team/*"], or ["*"] for every namespace',
    ]);
    expect(problemsOf([{ token: SHARED, verbs: ['read'], namespaces: [] }])).toEqual([]);
  });
});

describe('store.auth.tokens[].namespaces', () => {
  it('accepts *, a namespace and a subtree', () => {
    expect(
      problemsOf([{ token: SHARED, verbs: ['read'], namespaces: ['*', 'team/app', 'team/*', 'a.b_c-d'] }]),
    ).toEqual([]);
  });

  it('refuses a pattern that matches no namespace, naming it', () => {
    const patterns = ['team/**', '/team', 'team*', 'team/', '*/app', 'team app', 'team/../*', '..'];
    expect(problemsOf([{ token: SHARED, verbs: ['read'], namespaces: patterns }])).toEqual(
      patterns.map(
        (_, i) =>
          `store.auth.tokens[0].namespaces[${i}]: must be "*", a namespace such as team/app, or a subtree such as team/*`,
      ),
    );
  });
});

describe('a store token configured twice', () => {
  it('stops the start, naming both places and never the token', async () => {
    const start = startTempServers(
      {
        store: {
          auth: {
            tokens: [
              { name: 'reader', token: SHARED, verbs: ['read'], namespaces: ['*'] },
              { name: 'writer', token: SHARED, verbs: ['write'], namespaces: ['*'] },
              { name: 'ci', token_env: 'GATEHOUSE_TEST_CI_TOKEN', verbs: ['read'], namespaces: ['ci/*'] },
            ],
          },
        },
      },
      { GATEHOUSE_TEST_CI_TOKEN: 'st-ci-and-primary-0123456789', STORE_TOKEN: 'st-ci-and-primary-0123456789' },
    );
    const error = (await start.catch((e: unknown) => e)) as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.issues).toEqual([
      'store.auth.tokens[1].token: the same token as store.auth.tokens[0].token, whose grants alone would apply to it; give each its own token',
      'STORE_TOKEN: the same token as store.auth.tokens[2].token_env (GATEHOUSE_TEST_CI_TOKEN), whose grants alone would apply to it; give each its own token',
    ]);
    expect(error.message).not.toContain(SHARED);
    expect(error.message).not.toContain('st-ci-and-primary');
  });
});
