import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

const chat = { model: 'demo/echo', messages: [{ role: 'user' as const, content: 'Hello' }] };

/** What the official client gets with this secret: the answer's text, or the error's status and message. */
async function tryChat(h: GatewayHarness, secret: string): Promise<string> {
  try {
    return (await h.openaiClient(secret).chat.completions.create(chat)).choices[0]!.message.content ?? '';
  } catch (error) {
    // The SDK's message starts with the status.
    if (error instanceof OpenAI.APIError) return error.message;
    throw error;
  }
}

/**
 * `POST /internal/api-keys/:id/rotate`: a leaked secret is replaced without reissuing the key, so its
 * id, limits, usage and history stay; the old secret stops at once or after a grace period.
 */
describe('rotating an API key’s secret', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness();
  });
  afterAll(() => h.close());

  it('gives a new secret once; the old one stops at once, and the key keeps its id, settings and usage', async () => {
    const issued = await h.issueKey({ name: 'ci', scopes: ['chat'], rpm_limit: 50, models: ['demo/echo'] });
    expect(await tryChat(h, issued.key)).toBe('Hello');

    const rotated = await h.admin('POST', `/internal/api-keys/${issued.id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    const body = rotated.body;
    expect(body.id).toBe(issued.id);
    expect(body.key).toMatch(/^gk-/);
    expect(body.key).not.toBe(issued.key);
    expect(body.key.startsWith(body.key_prefix.replace(/…$/, ''))).toBe(true);
    expect(body).toMatchObject({
      name: 'ci',
      rpm_limit: 50,
      models: ['demo/echo'],
      scopes: ['chat'],
      status: 'active',
    });
    expect(Date.parse(body.rotated_at)).toBeGreaterThan(0);
    expect(body.previous_key_expires_at).toBe(body.rotated_at);

    expect(await tryChat(h, body.key)).toBe('Hello');
    expect(await tryChat(h, issued.key)).toMatch(/^401 .*rotated.*new one/);

    // Usage before and after the rotation is the same key's.
    const rows = await h.usageRows(`key_id=${issued.id}`);
    expect(rows.filter((row: { status: number }) => row.status === 200)).toHaveLength(2);
    // The record never shows a secret again, and says when it was rotated.
    const read = await h.admin('GET', `/internal/api-keys/${issued.id}`);
    expect(read.body.key).toBeUndefined();
    expect(read.body.rotated_at).toBe(body.rotated_at);
    expect(read.body.key_prefix).toBe(body.key_prefix);
  });

  it('with a grace period both secrets work until it ends; a second rotation ends the first secret at once', async () => {
    const issued = await h.issueKey({ scopes: ['chat'] });
    const first = (await h.admin('POST', `/internal/api-keys/${issued.id}/rotate`, { grace_seconds: 1 })).body;
    expect(Date.parse(first.previous_key_expires_at) - Date.parse(first.rotated_at)).toBe(1000);
    expect(await tryChat(h, issued.key)).toBe('Hello');
    expect(await tryChat(h, first.key)).toBe('Hello');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await tryChat(h, issued.key)).toMatch(/^401 .*rotated/);
    expect(await tryChat(h, first.key)).toBe('Hello');

    const again = (await h.admin('POST', `/internal/api-keys/${issued.id}/rotate`, { grace_seconds: 3600 })).body;
    expect(await tryChat(h, first.key)).toBe('Hello');
    expect(await tryChat(h, again.key)).toBe('Hello');
    // Only one earlier secret is kept: the original is now unknown, not merely rotated.
    expect(await tryChat(h, issued.key)).toMatch(/^401 invalid API key: this gateway issued no key with this secret/);
  });

  it('refuses a revoked or unknown key, and a grace period it cannot give, naming the problem', async () => {
    const issued = await h.issueKey({ scopes: ['chat'] });
    const tooLong = await h.admin('POST', `/internal/api-keys/${issued.id}/rotate`, { grace_seconds: 604_801 });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.message).toMatch(/grace_seconds.*a week/);
    const unknownField = await h.admin('POST', `/internal/api-keys/${issued.id}/rotate`, { grace: 10 });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.error.message).toMatch(/grace/);
    // Refused requests changed nothing: the secret still works.
    expect(await tryChat(h, issued.key)).toBe('Hello');

    await h.admin('DELETE', `/internal/api-keys/${issued.id}`);
    const revoked = await h.admin('POST', `/internal/api-keys/${issued.id}/rotate`);
    expect(revoked.status).toBe(409);
    expect(revoked.body.error.message).toMatch(/revoked: issue a new key/);
    // An expired key's new secret would be refused at once: rotating it says so instead.
    const ended = await h.issueKey({ scopes: ['chat'] });
    expect(
      (await h.admin('PATCH', `/internal/api-keys/${ended.id}`, { expires_at: '2020-01-01T00:00:00Z' })).status,
    ).toBe(200);
    const expired = await h.admin('POST', `/internal/api-keys/${ended.id}/rotate`);
    expect(expired.status).toBe(409);
    expect(expired.body.error.message).toContain('expired at 2020-01-01T00:00:00.000Z');
    expect(expired.body.error.message).toContain('set a later expires_at');
    const missing = await h.admin('POST', '/internal/api-keys/key_nope/rotate', {});
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toContain("'key_nope'");
  });

  it('is audited without either secret, and needs the master key', async () => {
    const issued = await h.issueKey({ scopes: ['chat'] });
    const rotated = (await h.admin('POST', `/internal/api-keys/${issued.id}/rotate`, { grace_seconds: 60 })).body;
    const audit = await h.admin('GET', `/internal/audit?action=api_key.rotate&target=${issued.id}`);
    expect(audit.status).toBe(200);
    expect(audit.body.data).toHaveLength(1);
    const text = JSON.stringify(audit.body.data[0]);
    expect(text).toContain(rotated.previous_key_expires_at);
    expect(text).not.toContain(issued.key);
    expect(text).not.toContain(rotated.key);

    const asKey = await fetch(`${h.url}/internal/api-keys/${issued.id}/rotate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${rotated.key}` },
    });
    expect(asKey.status).toBe(403);
  });

  it('PATCH sets a new expiry as a lifetime from now, but not beside expires_at', async () => {
    const issued = await h.issueKey({ scopes: ['chat'] });
    const before = Date.now();
    const patched = await h.admin('PATCH', `/internal/api-keys/${issued.id}`, { expires_in_seconds: 3600 });
    expect(patched.status).toBe(200);
    const expires = Date.parse(patched.body.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 3_600_000);
    const both = await h.admin('PATCH', `/internal/api-keys/${issued.id}`, {
      expires_in_seconds: 60,
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toMatch(/expires_in_seconds.*give one of them/);
  });
});
