import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from './app-helpers.js';
import { socketStore } from './support/socket-store.js';

// A path the store serves, asked with another method (a GET of /v1/apply from a script that meant to
// POST), is told which methods the path answers instead of being told the route does not exist.

describe('a known path with the wrong method', () => {
  const socket = socketStore();

  const send = async (method: string, path: string) => {
    const response = await fetch(`${socket.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    return {
      status: response.status,
      requestId: response.headers.get('x-request-id'),
      body: (await response.json()) as unknown,
    };
  };
  const notFound = (message: string) => ({
    status: 404,
    requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    body: { error: { type: 'not_found_error', message, code: 404 } },
  });

  it('names the methods the path answers', async () => {
    expect(await send('GET', '/v1/apply')).toEqual(notFound('no route GET /v1/apply; the path answers POST'));
    expect(await send('POST', '/v1/state?namespace=a')).toEqual(
      notFound('no route POST /v1/state; the path answers GET'),
    );
    expect(await send('PUT', '/v1/checkpoints')).toEqual(
      notFound('no route PUT /v1/checkpoints; the path answers GET, POST, DELETE'),
    );
    expect(await send('DELETE', '/v1/revisions/3')).toEqual(
      notFound('no route DELETE /v1/revisions/3; the path answers GET'),
    );
  });

  it('still says plainly that an unknown path has no route', async () => {
    expect(await send('GET', '/v1/nothing')).toEqual(notFound('no route GET /v1/nothing'));
    expect(await send('POST', '/v1/state/')).toEqual(notFound('no route POST /v1/state/'));
  });

  it('names the path a typo most likely meant, among those the method answers', async () => {
    expect(await send('POST', '/v1/aply')).toEqual(notFound('no route POST /v1/aply; did you mean /v1/apply?'));
    expect(await send('GET', '/v1/stat')).toEqual(notFound('no route GET /v1/stat; did you mean /v1/state?'));
    // Too long to be a typo: not compared.
    expect(await send('GET', `/v1/${'x'.repeat(300)}`)).toEqual(notFound(`no route GET /v1/${'x'.repeat(300)}`));
  });
});
