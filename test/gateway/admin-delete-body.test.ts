import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

// A DELETE of the admin API takes no body: a field sent with one (`{"force": true}`) used to be
// ignored while the caller believed it had an effect. It is refused, naming it, and nothing is deleted.

describe('DELETE bodies of the admin API', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness();
  });
  afterAll(async () => h?.close());

  it('refuses a field, naming it, and deletes nothing', async () => {
    expect((await h.admin('POST', '/internal/users', { id: 'kept' })).status).toBe(201);
    const refused = await h.admin('DELETE', '/internal/users/kept', { force: true });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe('request body has unknown field force');
    expect((await h.admin('GET', '/internal/users/kept')).status).toBe(200);
  });

  it('deletes with no body or an empty object', async () => {
    for (const id of ['gone-a', 'gone-b']) expect((await h.admin('POST', '/internal/users', { id })).status).toBe(201);
    expect((await h.admin('DELETE', '/internal/users/gone-a')).status).toBe(200);
    expect((await h.admin('DELETE', '/internal/users/gone-b', {})).status).toBe(200);
    expect((await h.admin('GET', '/internal/users/gone-a')).status).toBe(404);
    expect((await h.admin('GET', '/internal/users/gone-b')).status).toBe(404);
  });
});
