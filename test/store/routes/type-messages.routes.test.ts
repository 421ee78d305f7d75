import { describe, expect, it } from 'vitest';
import { socketStore } from '../support/socket-store.js';

// A body, scope or document of the wrong JSON type, a `delete` that is not a boolean and an unknown
// mode are named in the store's own words, as missing and mistyped strings are, rather than zod's
// ("Invalid input: expected object, received array").

describe('fields of the wrong type', () => {
  const socket = socketStore();
  const refusal = async (path: string, body: unknown) => {
    const answer = await socket.send('POST', path, body);
    expect(answer.status).toBe(400);
    return (answer.body.error as { message: string }).message;
  };
  const doc = { key: 'a', content: 'b' };

  it('says which object is not one, and what it is', async () => {
    expect(await refusal('/v1/apply', [doc])).toBe('body: must be an object, got an array');
    expect(await refusal('/v1/gc', [1])).toBe('body: must be an object, got an array');
    expect(await refusal('/v1/apply', { scope: 'team/app', documents: [doc] })).toBe(
      'scope: must be an object, got a string',
    );
    expect(await refusal('/v1/apply', { scope: null, documents: [doc] })).toBe('scope: must be an object, got null');
    expect(await refusal('/v1/diff', { documents: [doc, 5] })).toBe('documents[1]: must be an object, got a number');
  });

  it('says what delete and mode take', async () => {
    expect(await refusal('/v1/apply', { documents: [{ key: 'a', delete: 'yes' }] })).toBe(
      'documents[0].delete: must be true or false, got a string',
    );
    expect(await refusal('/v1/apply', { documents: [doc], mode: 'overwrite' })).toBe(
      'mode: must be "merge" or "replace", got "overwrite"',
    );
    expect(await refusal('/v1/diff', { documents: [doc], mode: 1 })).toBe('mode: must be "merge" or "replace", got 1');
  });
});
