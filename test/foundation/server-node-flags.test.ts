import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../support/headless-process.js';

/** The server's Node flags live in scripts/server-node-flags.json; package.json's `serve` repeats them. */
describe('server Node flags', () => {
  it('npm run serve passes the same flags as npm start', () => {
    const scripts = (
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(scripts.serve).toBe(`node ${SERVER_NODE_FLAGS.join(' ')} --import tsx src/server/cli.ts`);
  });

  it('this Node accepts every flag (an unknown flag would stop the server from starting)', () => {
    const result = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, '-e', 'process.exit(0)'], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
