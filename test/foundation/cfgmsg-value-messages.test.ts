import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/load.js';
import { configFiles, configRefusal } from '../support/config-files.js';

/**
 * A value the schema refuses is named with what was written and what is allowed, in plain words,
 * whatever key it is under: a wrong word gets the allowed ones and the likeliest, a number out of range
 * its bound, and text or a list the length it has.
 */
describe('configuration values out of their allowed set or range', () => {
  const files = configFiles('gatehouse-cfgmsg-values-');
  afterAll(() => files.cleanup());
  const issuesOf = (text: string): readonly string[] => configRefusal(files.write(text)).issues;

  it('a word not among the allowed ones: the word given, the allowed ones, and the one it most likely meant', () => {
    const issues = issuesOf(
      'pii:\n  mode: masked\n  entities: [email, phone_number, ip]\nserver:\n  log_level: loud\n',
    );
    expect(issues).toEqual(
      expect.arrayContaining([
        "pii.mode: 'masked' is not one of off, mask, redact, block (did you mean 'mask'?)",
        "pii.entities[1]: 'phone_number' is not one of email, phone, credit_card, iban, ip_address, national_id, secret (did you mean 'phone'?)",
        "pii.entities[2]: 'ip' is not one of email, phone, credit_card, iban, ip_address, national_id, secret (did you mean 'ip_address'?)",
        "server.log_level: 'loud' is not one of fatal, error, warn, info, debug, trace, silent",
      ]),
    );
    expect(issues).toHaveLength(4);
  });

  it('a number out of range: the number given and the bound it crosses', () => {
    const issues = issuesOf(
      'server:\n  gateway_port: 70000\n  store_port: -1\n  max_connections: 0\ngateway:\n  max_retries: 11\nrag:\n  min_similarity: 2\n',
    );
    expect(issues).toEqual([
      'server.gateway_port: 70000 is more than 65535',
      'server.store_port: -1 is less than 0',
      'server.max_connections: must be more than 0, got 0',
      'gateway.max_retries: 11 is more than 10',
      'rag.min_similarity: 2 is more than 1',
    ]);
  });

  it('text or a list too short or too long, also as the name of a map entry', () => {
    const name = 'n'.repeat(101);
    const issues = issuesOf(
      [
        'llm:',
        '  allowed_models: [demo/echo, ""]',
        '  model_aliases:',
        '    "": demo/echo',
        'sso:',
        '  providers:',
        '    corp:',
        `      name: ${name}`,
        '      issuer: https://login.example.com',
        '      client_id: gatehouse',
        '      client_secret_env: CORP_SECRET',
        '      mappings:',
        '        - value: staff',
        '          scopes: []',
      ].join('\n'),
    );
    expect(issues).toEqual([
      'llm.allowed_models[1]: must not be empty',
      "llm.model_aliases: '' is not a valid name (must not be empty)",
      `sso.providers.corp.name: '${name.slice(0, 60)}' has 101 characters; the most allowed is 100`,
      'sso.providers.corp.mappings[0].scopes: must list at least one item',
    ]);
  });

  it('blames the environment variable that set the value, and never shows a value that may be a secret', () => {
    let message = '';
    try {
      loadConfig({ env: { GATEHOUSE_LOG_LEVEL: 'verbos' } });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(
      "GATEHOUSE_LOG_LEVEL (server.log_level): 'verbos' is not one of fatal, error, warn, info, debug, trace, silent",
    );
    const secretPlace = issuesOf(
      'store:\n  auth:\n    tokens:\n      - token: sk-mistaken-secret-value-0123456789\n        verbs: [sk-mistaken-secret-value-0123456789]\n        namespaces: ["*"]\n',
    );
    expect(secretPlace).toEqual(['store.auth.tokens[0].verbs[0]: the value is not one of read, write, admin']);
  });

  it('keeps a message the schema words itself', () => {
    expect(issuesOf('store:\n  limits:\n    response_bytes: 100000000\n')).toEqual([
      'store.limits.response_bytes: must be at most 67108864 (64 MiB); larger states are read in pages',
    ]);
  });
});
