import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GATEHOUSE_VERSION } from '../../src/server/version.js';

describe('the version the servers report', () => {
  it('is the package version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(GATEHOUSE_VERSION).toBe(pkg.version);
  });
});
