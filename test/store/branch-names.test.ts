import { describe, expect, it } from 'vitest';
import { socketStore } from './support/socket-store.js';

// Branch names are what the contract's pattern allows: [A-Za-z0-9._/-]+ (decisions.md, docs/store.md).
// Its alphabet already leaves out every character git's check-ref-format refuses (space, control
// characters, ~ ^ : ? * [ \ and so @{), and those names are refused on every field that takes a
// branch. Names of allowed characters that git refuses for their shape (a..b, x.lock, -x, a trailing /
// or .) match the pattern, so the store takes them, as the contract says.

const RULE = 'must contain only letters, digits, ".", "_", "/" and "-"';
/** Each name with how the refusal names its first character outside the pattern. */
const GIT_REFUSES_BY_CHARACTER: ReadonlyArray<readonly [string, string]> = [
  ['a b', 'a space'],
  ['a~1', '"~"'],
  ['a^', '"^"'],
  ['a:b', '":"'],
  ['a?', '"?"'],
  ['a*', '"*"'],
  ['a[0]', '"["'],
  ['a\\b', '"\\"'],
  ['a@{1}', '"@"'],
  ['a\u0001b', 'U+0001'],
  ['tab\t', 'U+0009'],
  ['a🚀', '"🚀"'],
];
const GIT_REFUSES_BY_SHAPE = ['..', 'a..b', 'x.lock', '-x', 'a/', 'a.', '.hidden'];

describe('branch names', () => {
  const socket = socketStore();
  const failure = (message: string) => ({
    status: 400,
    body: { error: { type: 'invalid_request_error', message, code: 400 } },
  });

  it('refuses a character outside the pattern on a write, a branch creation and a read, naming the field', async () => {
    for (const [name, named] of GIT_REFUSES_BY_CHARACTER) {
      const rule = `${RULE}; it contains ${named}`;
      const documents = [{ key: 'a', content: '1' }];
      expect(
        await socket.send('POST', '/v1/apply', { scope: { namespace: 'names', branch: name }, documents }),
      ).toEqual(failure(`scope.branch: ${rule}`));
      expect(await socket.send('POST', '/v1/branches', { scope: { namespace: 'names' }, name })).toEqual(
        failure(`name: ${rule}`),
      );
      const state = await socket.send('GET', `/v1/state?namespace=names&branch=${encodeURIComponent(name)}`);
      expect(state).toEqual(failure(`branch: ${rule}`));
    }
  });

  it('takes names of the allowed characters whatever their shape, as the contract does', async () => {
    await socket.send('POST', '/v1/apply', { scope: { namespace: 'shapes' }, documents: [{ key: 'a', content: '1' }] });
    for (const name of GIT_REFUSES_BY_SHAPE) {
      const created = await socket.send('POST', '/v1/branches', { scope: { namespace: 'shapes' }, name });
      expect(created).toMatchObject({ status: 200, body: { name, base_revision: 1 } });
    }
  });
});
