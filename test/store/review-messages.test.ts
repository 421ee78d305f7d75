import { describe, expect, it } from 'vitest';
import { branchWrites, socketStore } from './support/socket-store.js';

// Messages that say what to do: a rename to the branch's own name is no conflict to resolve by deleting
// a branch, and an oversized document names its key and the setting that bounds it.

describe('store refusals that name what went wrong', () => {
  const socket = socketStore({ limits: { document_bytes: 32 } });
  const { apply, branchFrom } = branchWrites(socket);
  const messageOf = (body: Record<string, unknown>) => (body.error as { message: string }).message;

  it('refuses renaming a branch to its own name with 400, without advising to delete it', async () => {
    const ns = 'msg/rename';
    await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    await branchFrom(ns, 'main', 'release/1.0');
    const same = await socket.send('POST', '/v1/branches/rename', {
      namespace: ns,
      name: 'release/1.0',
      new_name: 'release/1.0',
    });
    expect(same.status).toBe(400);
    expect(messageOf(same.body)).toMatch(/^new_name "release\/1\.0" is already the branch's name/);
    expect(messageOf(same.body)).not.toContain('delete');
  });

  it('names the key and store.limits.document_bytes in the 413 of an oversized document', async () => {
    const big = await socket.send('POST', '/v1/apply', {
      scope: { namespace: 'msg/size' },
      documents: [
        { key: 'small', content: 'x' },
        { key: 'a.txt', content: 'x'.repeat(33) },
      ],
    });
    expect(big.status).toBe(413);
    expect(messageOf(big.body)).toBe(
      'documents[1].content (key "a.txt") is 33 bytes; the limit is 32 bytes per document (store.limits.document_bytes)',
    );
  });
});
