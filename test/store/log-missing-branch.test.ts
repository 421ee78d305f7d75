import { describe, expect, it } from 'vitest';
import { socketStore } from './support/socket-store.js';

// GET /v1/log of a branch never written answered an empty history, so a typo (`mian`) read as a branch
// with nothing in it. Where the namespace has branches it is now 404 naming them, as checkpoints and
// rollback answer; where nothing was written yet, the contract's fresh scope, it stays empty.

describe('GET /v1/log of a branch never written', () => {
  const socket = socketStore();
  const call = (method: string, path: string, body?: unknown) => socket.send(method, path, body);
  const apply = (namespace: string, branch: string) =>
    call('POST', '/v1/apply', { scope: { namespace, branch }, documents: [{ key: 'a', content: branch }] });

  it('is 404 naming the namespace’s branches when it has some', async () => {
    await apply('typo', 'main');
    await apply('typo', 'canary');
    expect(await call('GET', '/v1/log?namespace=typo&branch=mian')).toEqual({
      status: 404,
      body: {
        error: {
          type: 'not_found_error',
          code: 404,
          message:
            'branch "mian" does not exist in namespace "typo", so it has no history; its branches are "main", ' +
            '"canary". Check the name: GET /v1/branches lists them all',
        },
      },
    });
    // Also with a document or times given: the branch is what is missing.
    expect((await call('GET', '/v1/log?namespace=typo&branch=mian&key=a&since=2026-01-01')).status).toBe(404);
    expect((await call('GET', '/v1/log?namespace=typo&branch=canary')).body).toMatchObject({ total: 1 });
  });

  it('is 404 for the default branch too, where only others were written', async () => {
    await apply('nomain', 'dev');
    const answer = await call('GET', '/v1/log?namespace=nomain');
    expect(answer.status).toBe(404);
    expect((answer.body.error as { message: string }).message).toContain('its branches are "dev"');
  });

  it('stays an empty history where nothing was written, or every branch was deleted', async () => {
    expect(await call('GET', '/v1/log?namespace=fresh&branch=main')).toEqual({
      status: 200,
      body: { entries: [], total: 0 },
    });
    await apply('gone', 'tmp');
    expect((await call('DELETE', '/v1/branches', { namespace: 'gone', name: 'tmp' })).status).toBe(200);
    expect(await call('GET', '/v1/log?namespace=gone&branch=tmp')).toEqual({
      status: 200,
      body: { entries: [], total: 0 },
    });
  });
});
