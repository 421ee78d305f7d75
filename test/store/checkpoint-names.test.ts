import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestStore, type TestStore } from './app-helpers.js';

// A checkpoint name is refused for what is actually wrong with it: a lone surrogate is not a control
// character, and a message that says so sends the user looking for the wrong thing.

describe('checkpoint names', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await buildTestStore();
  });
  afterAll(async () => store.close());

  const create = async (name: string) => {
    const response = await store.call('POST', '/v1/checkpoints', { scope: { namespace: 'team/app' }, name });
    return { status: response.statusCode, body: response.json() as unknown };
  };
  const refused = (message: string) => ({
    status: 400,
    body: { error: { type: 'invalid_request_error', message, code: 400 } },
  });

  it('says a lone surrogate is not well-formed Unicode', async () => {
    expect(await create('v1\uD800')).toEqual(
      refused('name holds a lone UTF-16 surrogate at character 2: not valid Unicode text'),
    );
    expect(await create('\uDC00')).toEqual(
      refused('name holds a lone UTF-16 surrogate at character 0: not valid Unicode text'),
    );
  });

  it('says a control character is one', async () => {
    expect(await create('v1\u0001')).toEqual(refused('name: must not contain control characters'));
  });

  it('accepts any other character, a surrogate pair included', async () => {
    expect(await create('release 1 \u{1F680}')).toEqual({
      status: 200,
      body: { name: 'release 1 \u{1F680}', revision_id: 0 },
    });
  });
});
