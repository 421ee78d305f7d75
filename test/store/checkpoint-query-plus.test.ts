import { describe, expect, it } from 'vitest';
import { branchWrites, socketStore } from './support/socket-store.js';

// Checkpoint names may hold spaces and `+`. Form decoding reads a literal `+` in a query as a space, so
// `?checkpoint=rc+1` could mean "rc 1" or "rc+1": the store answers the one that exists, and refuses
// when both do rather than answer the other one's state.

describe('GET /v1/state?checkpoint= with a literal "+"', () => {
  const socket = socketStore();
  const { apply } = branchWrites(socket);
  const checkpoint = (namespace: string, name: string, revision: number) =>
    socket.send('POST', '/v1/checkpoints', { scope: { namespace }, name, revision_id: revision });
  const stateAt = (namespace: string, rawName: string) =>
    socket.send('GET', `/v1/state?namespace=${namespace}&checkpoint=${rawName}`);

  it('refuses a literal "+" when "rc 1" and "rc+1" both exist, and reads each one percent-encoded', async () => {
    const ns = 'plus/both';
    const first = await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    const second = await apply(ns, 'main', [{ key: 'a', content: '2' }]);
    expect((await checkpoint(ns, 'rc 1', first)).status).toBe(200);
    expect((await checkpoint(ns, 'rc+1', second)).status).toBe(200);

    const ambiguous = await stateAt(ns, 'rc+1');
    expect(ambiguous.status).toBe(400);
    const message = (ambiguous.body.error as { message: string }).message;
    expect(message).toContain('checkpoints "rc 1" and "rc+1" both exist');
    expect(message).toContain('%2B');
    expect(message).toContain('%20');
    expect((await stateAt(ns, 'rc%2B1')).body).toMatchObject({ revision: second });
    expect((await stateAt(ns, 'rc%201')).body).toMatchObject({ revision: first });
  });

  it('reads the one checkpoint a literal "+" can name', async () => {
    const ns = 'plus/one';
    const first = await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    const second = await apply(ns, 'main', [{ key: 'a', content: '2' }]);
    await checkpoint(ns, 'v1+build', first);
    await checkpoint(ns, 'next release', second);
    expect((await stateAt(ns, 'v1+build')).body).toMatchObject({ revision: first, objects: { a: '1' } });
    expect((await stateAt(ns, 'next+release')).body).toMatchObject({ revision: second, objects: { a: '2' } });
    expect((await stateAt(ns, 'no+such')).status).toBe(404);
  });
});
