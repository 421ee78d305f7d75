import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_MASTER_KEY } from '../support/temp-servers.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** The gateway keeps this few requests, so a request leaves the buffer after a few more. */
const KEPT = 3;

/** Opens the traffic stream at `query` and returns a reader of its first `traffic` event. */
async function firstTrafficEvent(h: GatewayHarness, query: string, send: () => Promise<unknown>): Promise<any> {
  const abort = new AbortController();
  const stream = await fetch(`${h.url}/internal/traffic/stream${query}`, {
    headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
    signal: abort.signal,
  });
  expect(stream.status).toBe(200);
  const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
  await send();
  let text = '';
  let match: RegExpMatchArray | null = null;
  while (!(match = text.match(/^event: traffic\ndata: (.*)$/m))) text += (await reader.read()).value ?? '';
  abort.abort();
  return JSON.parse(match[1]!);
}

/**
 * The live traffic view lists metadata only: its stream and backfill leave the bodies out, and the
 * drawer reads one request's bodies by its number while the gateway still keeps it.
 */
describe('traffic without bodies, and one request with them', () => {
  let h: GatewayHarness;
  let key: string;
  const chat = (content: string) =>
    h.openaiClient(key).chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content }] });

  beforeAll(async () => {
    h = await startGatewayHarness({ gateway: { max_retries: 0, retry_backoff_ms: 10, traffic_buffer: KEPT } });
    key = (await h.issueKey({ scopes: ['chat'] })).key;
  });
  afterAll(async () => h.close());

  it('streams events without bodies to a subscriber that asks bodies=false, with them by default', async () => {
    const lean = await firstTrafficEvent(h, '?bodies=false', () => chat('lean live'));
    expect(lean).toMatchObject({ status: 200, request_body: null, response_body: null, truncated: false });
    expect(lean.request_id).toEqual(expect.any(String));
    const full = await firstTrafficEvent(h, '', () => chat('full live'));
    expect(JSON.stringify(full.request_body)).toContain('full live');
    expect(JSON.stringify(full.response_body)).toContain('full live');
  });

  it('replays the buffer without bodies too', async () => {
    const cursor = (await h.admin('GET', '/internal/traffic?limit=1')).body.last_seq as number;
    await chat('lean replay');
    const lean = await firstTrafficEvent(h, `?bodies=false&after=${cursor}`, async () => {});
    expect(lean).toMatchObject({ seq: cursor + 1, request_body: null, response_body: null });
  });

  it('answers one held request with its bodies, and 404 naming it once the buffer dropped it', async () => {
    await chat('read me by number');
    const [listed] = (await h.admin('GET', '/internal/traffic?limit=1&bodies=false')).body.data;
    expect(listed.request_body).toBeNull();
    const one = await h.admin('GET', `/internal/traffic/${listed.seq}`);
    expect(one.status).toBe(200);
    expect(one.body.seq).toBe(listed.seq);
    expect(one.body.request_id).toBe(listed.request_id);
    expect(JSON.stringify(one.body.request_body)).toContain('read me by number');
    expect(JSON.stringify(one.body.response_body)).toContain('read me by number');

    for (let i = 0; i < KEPT; i += 1) await chat(`pushes it out ${i}`);
    const gone = await h.admin('GET', `/internal/traffic/${listed.seq}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.type).toBe('not_found_error');
    expect(gone.body.error.message).toContain(String(listed.seq));
    expect(gone.body.error.message).toContain('gateway.traffic_buffer');

    const bad = await h.admin('GET', '/internal/traffic/abc');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('seq');
  });

  it('keeps the limit a limits refusal named, without bodies', async () => {
    const limited = (await h.issueKey({ scopes: ['chat'], rpm_limit: 1 })).key;
    const send = () =>
      h
        .openaiClient(limited)
        .chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'x' }] });
    await send();
    await expect(send()).rejects.toMatchObject({ status: 429 });
    const [refused] = (await h.admin('GET', '/internal/traffic?limit=1&bodies=false')).body.data;
    expect(refused).toMatchObject({ status: 429, response_body: null });
    const full = (await h.admin('GET', `/internal/traffic/${refused.seq}`)).body;
    expect(full.response_body.error.limit_type).toEqual(expect.any(String));
    expect(refused.limit_type).toBe(full.response_body.error.limit_type);
  });
});
