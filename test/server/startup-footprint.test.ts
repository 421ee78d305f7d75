import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/**
 * What the running servers load: each library the gateway uses a part of stays that part, since every
 * module loaded is resident memory for the process's life (the benchmark's RSS target counts it).
 */
describe('the modules the servers load', () => {
  it('leave out undici fetch and mocks, and Fastify’s Ajv and fast-json-stringify compilers', () => {
    const script = `
      const { startTempServers } = await import('./test/support/temp-servers.ts');
      const servers = await startTempServers();
      const answer = await fetch(servers.gatewayUrl + '/healthz');
      const { createRequire } = await import('node:module');
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      await servers.stop();
      console.log(JSON.stringify({ status: answer.status, loaded }));
    `;
    const { status, loaded } = JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' }),
    ) as { status: number; loaded: string[] };
    expect(status).toBe(200);
    // What the gateway does use is there: undici's pool, and Fastify itself.
    expect(loaded.some((path) => path.endsWith('/undici/lib/dispatcher/pool.js'))).toBe(true);
    expect(loaded.some((path) => path.endsWith('/fastify/fastify.js'))).toBe(true);
    const unwanted = loaded.filter(
      (path) =>
        path.endsWith('/undici/index.js') ||
        /\/undici\/lib\/(web|mock|cache)\//.test(path) ||
        path.includes('/@fastify/ajv-compiler/') ||
        path.includes('/@fastify/fast-json-stringify-compiler/') ||
        path.includes('/ajv-formats/'),
    );
    expect(unwanted).toEqual([]);
  });
});
