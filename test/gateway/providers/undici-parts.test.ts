import { createRequire } from 'node:module';
import type * as Undici from 'undici';
import { describe, expect, it } from 'vitest';
import { errors, Pool } from '../../../src/server/gateway/providers/undici-parts.js';

const require = createRequire(import.meta.url);

describe('the parts of undici the gateway loads', () => {
  it('are the classes undici itself exports, so an upgrade that moves them fails here', () => {
    const undici = require('undici') as typeof Undici;
    expect(Pool).toBe(undici.Pool);
    expect(errors).toBe(undici.errors);
    expect(new errors.HeadersTimeoutError('late')).toBeInstanceOf(undici.errors.UndiciError);
  });
});
