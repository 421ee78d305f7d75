import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64url, sha256 } from '../../src/renderer/src/lib/sha256.js';

describe('the renderer sha256 (S256 challenges where crypto.subtle is missing)', () => {
  it('matches node:crypto on the standard vectors and block edges', () => {
    for (const text of ['', 'abc', 'a'.repeat(55), 'a'.repeat(56), 'a'.repeat(64), 'a'.repeat(1000)]) {
      const bytes = new TextEncoder().encode(text);
      expect(Buffer.from(sha256(bytes)).toString('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
  });

  it('matches node:crypto on any bytes, and base64url matches Buffer', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const expected = createHash('sha256').update(bytes).digest();
        expect(base64url(sha256(bytes))).toBe(expected.toString('base64url'));
      }),
      { numRuns: 300 },
    );
  });
});
