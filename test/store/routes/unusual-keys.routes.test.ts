import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestStore, type TestStore } from '../app-helpers.js';

// Keys are any non-empty string up to 1,024 characters: the state read must return each one whole,
// U+0000 and JSON's special characters included, and never let one key hide another.

describe('keys with characters JSON and SQLite treat specially', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await buildTestStore();
  });
  afterAll(async () => store.close());

  const apply = (documents: Array<{ key: string; content: string }>) =>
    store.call('POST', '/v1/apply', { scope: { namespace: 'odd/keys' }, documents });

  it('returns keys holding U+0000, quotes, newlines and astral characters intact, at head and at old revisions', async () => {
    expect((await apply([{ key: 'a\u0000b', content: '1' }])).statusCode).toBe(200);
    expect((await apply([{ key: 'a', content: '2' }])).statusCode).toBe(200);
    expect(
      (
        await apply([
          { key: 'a\u0000b', content: '3' },
          { key: '\u0000', content: 'nul' },
          { key: 'q"u\\o\nte 😀', content: 'x\u0000y' },
        ])
      ).statusCode,
    ).toBe(200);

    const head = await store.call('GET', '/v1/state?namespace=odd/keys');
    expect(head.json()).toEqual({
      revision: 3,
      objects: { '\u0000': 'nul', a: '2', 'a\u0000b': '3', 'q"u\\o\nte 😀': 'x\u0000y' },
    });
    // The text itself has no repeated key (JSON.parse would silently keep only the last one).
    expect(head.body.match(/"a"/g)).toHaveLength(1);

    const second = await store.call('GET', '/v1/state?namespace=odd/keys&revision=2');
    expect(second.json()).toEqual({ revision: 2, objects: { a: '2', 'a\u0000b': '1' } });
  });
});

describe('integers in query strings', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await buildTestStore();
  });
  afterAll(async () => store.close());

  it('takes plain decimal digits only, and names the parameter otherwise', async () => {
    await store.call('POST', '/v1/apply', { scope: { namespace: 'q/ints' }, documents: [{ key: 'a', content: '1' }] });
    expect((await store.call('GET', '/v1/state?namespace=q/ints&revision=1')).json()).toEqual({
      revision: 1,
      objects: { a: '1' },
    });
    for (const value of ['1e2', '0x1', '%201', '1.5', 'abc']) {
      const answer = await store.call('GET', `/v1/state?namespace=q/ints&revision=${value}`);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().error.message).toBe('revision must be an integer');
    }
    expect((await store.call('GET', '/v1/state?namespace=q/ints&revision=-1')).json().error.message).toBe(
      'revision must not be negative',
    );
    expect((await store.call('GET', '/v1/log?namespace=q/ints&limit=1e1')).json().error.message).toBe(
      'limit must be an integer',
    );
    expect((await store.call('GET', '/v1/revisions/0x1?namespace=q/ints')).statusCode).toBe(400);
  });
});
