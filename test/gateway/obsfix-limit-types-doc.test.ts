import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LIMIT_TYPES } from '../../src/shared/principals-api.js';

/** The metrics table of docs/gateway.md lists exactly the `limit_type` values `/metrics` exports. */
describe('gateway_rate_limit_hits_total in the docs', () => {
  it('lists every limit_type the code exports, and no other', () => {
    const docs = readFileSync(new URL('../../docs/gateway.md', import.meta.url), 'utf8');
    const row = docs.split('\n').find((line) => line.startsWith('| `gateway_rate_limit_hits_total` |'));
    expect(row).toBeDefined();
    const listed = /`limit_type` \(([^)]*)\)/.exec(row!)?.[1] ?? '';
    const values = [...listed.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]);
    expect([...values].sort()).toEqual([...LIMIT_TYPES].sort());
  });
});
