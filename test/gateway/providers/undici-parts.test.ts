import { execFileSync } from 'node:child_process';
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

  it('leave fetch, WebSocket and the mocks unloaded in a process that only proxies', () => {
    const script = `
      await import('./src/server/gateway/providers/upstream-pools.ts');
      await import('./src/server/gateway/providers/upstream-exchange.ts');
      const { createRequire } = await import('node:module');
      const loaded = Object.keys(createRequire(import.meta.url).cache).filter((path) => path.includes('/undici/'));
      console.log(JSON.stringify(loaded));
    `;
    const loaded = JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' }),
    ) as string[];
    expect(loaded.some((path) => path.endsWith('/lib/dispatcher/pool.js'))).toBe(true);
    expect(
      loaded.filter((path) => /\/lib\/(web|mock|cache)\//.test(path) || path.endsWith('/undici/index.js')),
    ).toEqual([]);
  });
});
