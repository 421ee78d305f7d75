import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStoreState, type StoreReader } from '../../src/renderer/src/api/store-state.js';
import { startTempServers, TEST_STORE_TOKEN, type TempServers } from '../support/temp-servers.js';

const RESPONSE_BYTES = 64 * 1024;

/**
 * The UI reads a state a page at a time, so a branch larger than the store's `response_bytes` (a
 * whole read is 413) still opens in Documents, the restore and branch previews, every page at one
 * revision; past the window's own bound it says what to do instead.
 */
describe('the UI’s read of a whole state', () => {
  let servers: TempServers;
  // The app's client needs a browser window; this one makes the same store requests from Node.
  const api: StoreReader = {
    request: async (_service, path, { query, schema, signal }) => {
      const url = new URL(path, servers.storeUrl);
      for (const [name, value] of Object.entries(query))
        if (value !== undefined) url.searchParams.set(name, String(value));
      const response = await fetch(url, { headers: { authorization: `Bearer ${TEST_STORE_TOKEN}` }, signal });
      if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
      return schema.parse(await response.json());
    },
  };
  const scope = { namespace: 'big/docs', branch: 'main' };
  const apply = async (documents: unknown[]): Promise<number> => {
    const response = await fetch(`${servers.storeUrl}/v1/apply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scope, documents }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { revision: number }).revision;
  };

  beforeAll(async () => {
    servers = await startTempServers({ store: { limits: { response_bytes: RESPONSE_BYTES } } });
  });
  afterAll(() => servers?.stop());

  it('loads a state the store refuses whole, every document at the revision asked for', async () => {
    const content = (index: number): string => `document ${index} `.repeat(100);
    const first = await apply(
      Array.from({ length: 120 }, (_, index) => ({
        key: `doc/${String(index).padStart(3, '0')}`,
        content: content(index),
      })),
    );
    // Written after: pages of the earlier revision must not see it.
    await apply([
      { key: 'doc/000', content: 'changed' },
      { key: 'doc/120', content: 'new' },
      { key: '__proto__', content: 'a document like any other' },
    ]);
    const whole = await fetch(`${servers.storeUrl}/v1/state?namespace=big/docs&branch=main&revision=${first}`, {
      headers: { authorization: `Bearer ${TEST_STORE_TOKEN}` },
    });
    expect(whole.status).toBe(413);

    const state = await readStoreState(api, scope, { revision: first });
    expect(state.revision).toBe(first);
    expect(Object.keys(state.objects)).toHaveLength(120);
    expect(state.objects['doc/000']).toBe(content(0));
    expect(state.objects['doc/119']).toBe(content(119));

    const head = await readStoreState(api, scope, {});
    expect(Object.keys(head.objects)).toHaveLength(122);
    expect(head.objects['doc/120']).toBe('new');
    expect(Object.hasOwn(head.objects, '__proto__')).toBe(true);
    expect(head.objects['__proto__']).toBe('a document like any other');
    expect(head.objects['doc/000']).toBe('changed');
  });

  it('past the window’s bound, names the branch and how to read it instead', async () => {
    const failure = await readStoreState(api, scope, {}, undefined, 100_000).catch((error: unknown) => error);
    expect((failure as Error).message).toMatch(
      /branch "main" of "big\/docs" holds more than .* GET \/v1\/state \(limit, after\)/,
    );
  });
});
