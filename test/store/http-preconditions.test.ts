import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_STORE_TOKEN, type TempServers } from '../support/temp-servers.js';

/**
 * A client that guards its write with HTTP's `If-Match` (as it would against any REST store) must not
 * have the guard ignored: the write would land over the newer revision it meant to protect. The store
 * refuses the header, pointing at `expected_revision`, its own guard.
 */
describe('HTTP preconditions on the store', () => {
  let servers: TempServers;
  beforeAll(async () => {
    servers = await startTempServers();
  });
  afterAll(async () => servers?.stop());

  const send = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${servers.storeUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const apply = (content: string, headers?: Record<string, string>) =>
    send('POST', '/v1/apply', { scope: { namespace: 'pre' }, documents: [{ key: 'a', content }] }, headers);

  it('refuses a change sent with If-Match, If-None-Match or If-Unmodified-Since, writing nothing', async () => {
    expect((await apply('one')).status).toBe(200);
    for (const [name, value] of [
      ['if-match', '"999"'],
      ['if-none-match', '*'],
      ['if-unmodified-since', 'Sat, 28 Nov 2026 00:00:00 GMT'],
    ] as const) {
      const answer = await apply('two', { [name]: value });
      expect({ name, status: answer.status }).toEqual({ name, status: 400 });
      expect(answer.headers.get('x-request-id')).toBeTruthy();
      const { error } = (await answer.json()) as { error: { message: string } };
      expect(error.message).toContain(`header ${name} is not supported`);
      expect(error.message).toContain('expected_revision');
    }
    const state = (await (await send('GET', '/v1/state?namespace=pre', undefined)).json()) as {
      revision: number;
      objects: Record<string, string>;
    };
    expect(state).toMatchObject({ revision: 1, objects: { a: 'one' } });
  });

  it('answers a read in full whatever its preconditions, POST /v1/diff included', async () => {
    const answer = await send('GET', '/v1/state?namespace=pre', undefined, { 'if-none-match': '*' });
    expect(answer.status).toBe(200);
    const diff = await send('POST', '/v1/diff', { scope: { namespace: 'pre' }, revision_id: 1 }, { 'if-match': '"1"' });
    expect(diff.status).toBe(200);
  });

  it('refuses one on a change without expected_revision, without pointing to it', async () => {
    const answer = await send('POST', '/v1/branches', { scope: { namespace: 'pre' }, name: 'b1' }, { 'if-match': '*' });
    expect(answer.status).toBe(400);
    const { error } = (await answer.json()) as { error: { message: string } };
    expect(error.message).toBe(
      'header if-match is not supported: this endpoint evaluates no precondition, so send the request without it',
    );
  });

  it('points a checkpoint deletion to the revision the checkpoint marks', async () => {
    const answer = await send('DELETE', '/v1/checkpoints', { namespace: 'pre', name: 'v1' }, { 'if-match': '*' });
    expect(answer.status).toBe(400);
    const { error } = (await answer.json()) as { error: { message: string } };
    expect(error.message).toBe(
      'header if-match is not supported: send expected_revision in the JSON body (the revision the checkpoint marks); the deletion is then refused with 409 if the checkpoint has moved',
    );
  });
});
