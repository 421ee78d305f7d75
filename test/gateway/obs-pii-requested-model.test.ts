import { describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

/**
 * With PII masking on, a `model` that is personal data is client text like the body: the traffic view,
 * the usage rows and the usage groups show it redacted, while a model the gateway serves, or an alias
 * of one, is recorded by its name so usage still groups by it.
 */
describe('the requested model under PII masking', () => {
  const context = harnessWithKey();

  it('records a personal-data model name redacted and a served one by its name', async () => {
    const { harness: h, key } = context;
    expect((await h.admin('PUT', '/internal/pii', { mode: 'mask' })).status).toBe(200);
    const client = h.openaiClient(key);
    const messages = [{ role: 'user' as const, content: 'hi' }];
    await expect(client.chat.completions.create({ model: 'jane.doe@example.com', messages })).rejects.toThrow();
    await client.chat.completions.create({ model: 'fast', messages });
    await client.chat.completions.create({ model: 'demo/echo', messages });

    const traffic = (await h.admin('GET', '/internal/traffic?limit=10&bodies=true')).body.data as Array<
      Record<string, unknown>
    >;
    expect(traffic.map((event) => event.requested_model)).toEqual(['demo/echo', 'fast', '[EMAIL_1]']);
    const rows = await h.usageRows('limit=10');
    expect(rows.map((row) => row.requested_model)).toEqual(['demo/echo', 'fast', '[EMAIL_1]']);
    expect(rows.map((row) => row.model)).toEqual(['demo/echo', 'gpt-4o-mini', null]);

    const usage = (await h.admin('GET', '/internal/usage?group_by=model')).body.data as Array<{ group: string }>;
    expect(new Set(usage.map((point) => point.group))).toEqual(new Set(['demo/echo', 'gpt-4o-mini', '[EMAIL_1]']));
    const everything = JSON.stringify({ traffic, rows, usage });
    expect(everything).not.toContain('jane.doe');
  });

  it('records an unknown model name without personal data as the client wrote it', async () => {
    const { harness: h, key } = context;
    const client = h.openaiClient(key);
    await expect(
      client.chat.completions.create({ model: 'gpt-typo-9', messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toThrow();
    const [row] = await h.usageRows('limit=1');
    expect(row).toMatchObject({ requested_model: 'gpt-typo-9', model: null });
  });
});
