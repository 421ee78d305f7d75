import { describe, expect, it } from 'vitest';
import { keyMatches } from '../../src/renderer/src/features/gateway/keys-filter.js';
import type { ApiKeyRecord } from '../../src/shared/gateway-api.js';

const key = {
  id: 'key_Ab12Cd34Ef56',
  name: 'CI pipeline',
  key_prefix: 'gk-HCBdqwshQn…',
  user: 'ada@example.com',
  team: 'platform',
} as ApiKeyRecord;

describe('keys filter', () => {
  it('finds a key by any part of its name, id, prefix, user or team, in any case', () => {
    for (const typed of ['pipeline', 'KEY_ab12', 'gk-hcbd', 'gk-HCBdqwshQn', 'ada@', 'PLATFORM', '  ci  ', ''])
      expect(keyMatches(key, typed), typed).toBe(true);
  });

  it('does not match the ellipsis of the prefix, nor what the key lacks', () => {
    for (const typed of ['…', 'Qn…', 'billing']) expect(keyMatches(key, typed), typed).toBe(false);
    expect(keyMatches({ ...key, name: null, user: null, team: null }, 'platform')).toBe(false);
  });
});
