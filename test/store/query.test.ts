import { beforeAll, describe, expect, it } from 'vitest';
import { socketStore } from './support/socket-store.js';

// Query strings are read as strictly as bodies, over a real socket: a misspelt parameter, one given
// twice, or an integer past what a double holds exactly is refused with a message naming it, never
// read as something else (`?namspace=team/app` would otherwise answer the empty `default` namespace).

describe('store query strings', () => {
  const socket = socketStore();
  beforeAll(async () => {
    const scope = { namespace: 'team/app', branch: 'main' };
    for (const content of ['one', 'two']) {
      expect((await socket.send('POST', '/v1/apply', { scope, documents: [{ key: 'a', content }] })).status).toBe(200);
    }
  });

  const get = (path: string) => socket.send('GET', path);
  const refused = (message: string) => ({
    status: 400,
    body: { error: { type: 'invalid_request_error', message, code: 400 } },
  });

  it('refuses a parameter the endpoint does not take, naming it and the ones it takes', async () => {
    expect(await get('/v1/state?namspace=team/app')).toEqual(
      refused(
        'querystring: unknown parameter "namspace"; this endpoint takes namespace, branch, revision, checkpoint, limit, after, key, contents, as_of',
      ),
    );
    expect(await get('/v1/state?namespace=team/app&revison=1')).toEqual(
      refused(
        'querystring: unknown parameter "revison"; this endpoint takes namespace, branch, revision, checkpoint, limit, after, key, contents, as_of',
      ),
    );
    expect(await get('/v1/log?namespace=team/app&limt=1&aftr=2')).toEqual(
      refused(
        'querystring: unknown parameters "limt", "aftr"; this endpoint takes namespace, branch, limit, after, key, contents, since, until, since_revision',
      ),
    );
    expect(await get('/v1/revisions/1?namespace=team/app&branch=main')).toEqual(
      refused('querystring: unknown parameter "branch"; this endpoint takes namespace, limit, after, key, contents'),
    );
    for (const path of ['/v1/branches?x=1', '/v1/checkpoints?x=1', '/v1/namespaces?x=1']) {
      expect((await get(path)).body).toMatchObject({ error: { message: expect.stringContaining('"x"') } });
    }
  });

  it('still answers every parameter it documents', async () => {
    expect(await get('/v1/state?namespace=team/app&branch=main&revision=1&checkpoint=')).toEqual({
      status: 200,
      body: { revision: 1, objects: { a: 'one' } },
    });
    const log = await get('/v1/log?namespace=team/app&branch=main&limit=1&after=2');
    expect(log.status).toBe(200);
    expect(log.body.entries).toHaveLength(1);
    expect((await get('/v1/branches?namespace=team/app&branch=main&limit=1&after=')).status).toBe(200);
    expect((await get('/v1/checkpoints?namespace=team/app&limit=1&after=')).status).toBe(200);
    expect((await get('/v1/namespaces?limit=1&after=')).status).toBe(200);
    expect((await get('/v1/revisions/2?namespace=team/app')).status).toBe(200);
  });

  it('reads an empty integer parameter as unused, as it does an empty checkpoint or cursor', async () => {
    expect(await get('/v1/state?namespace=team/app&branch=main&revision=&checkpoint=')).toEqual({
      status: 200,
      body: { revision: 2, objects: { a: 'two' } },
    });
    const log = await get('/v1/log?namespace=team/app&branch=main&limit=&after=');
    expect(log.status).toBe(200);
    expect(log.body.entries).toHaveLength(2);
    expect((await get('/v1/branches?namespace=team/app&limit=')).status).toBe(200);
  });

  it('refuses a parameter given twice instead of calling it "not an integer"', async () => {
    expect(await get('/v1/state?namespace=team/app&revision=1&revision=2')).toEqual(
      refused('revision is given 2 times; give it once'),
    );
    expect(await get('/v1/state?namespace=team/app&namespace=other')).toEqual(
      refused('namespace is given 2 times; give it once'),
    );
  });

  it('names the bound of an integer too large for a double, and clamps a large limit as documented', async () => {
    expect(await get('/v1/state?namespace=team/app&revision=9007199254740993')).toEqual(
      refused('revision must be at most 9007199254740991'),
    );
    expect(await get('/v1/log?namespace=team/app&after=100000000000000000000000')).toEqual(
      refused('after must be at most 9007199254740991'),
    );
    expect(await get('/v1/revisions/100000000000000000000000?namespace=team/app')).toEqual(
      refused('id must be at most 9007199254740991'),
    );
    const log = await get('/v1/log?namespace=team/app&limit=100000000000000000000000');
    expect(log.status).toBe(200);
    expect(log.body.entries).toHaveLength(2);
    // Past a double's range (309 digits and more) too: the bound, never "not an integer".
    const huge = '9'.repeat(400);
    expect(await get(`/v1/state?namespace=team/app&revision=${huge}`)).toEqual(
      refused('revision must be at most 9007199254740991'),
    );
    expect((await get(`/v1/log?namespace=team/app&limit=${huge}`)).body.entries).toHaveLength(2);
    expect(await get(`/v1/state?namespace=team/app&revision=-${huge}`)).toEqual(
      refused('revision must not be negative'),
    );
    expect(await get('/v1/state?namespace=team/app&revision=1.5')).toEqual(refused('revision must be an integer'));
  });

  it('names an unknown body field and the fields the endpoint, scope or document takes', async () => {
    const post = (path: string, body: unknown, method = 'POST') => socket.send(method, path, body);
    const documents = [{ key: 'a', content: 'x' }];
    expect(await post('/v1/apply', { documents, revison_id: 3 })).toEqual(
      refused(
        'body: unknown field "revison_id"; this endpoint takes scope, documents, message, mode, expected_revision, contents',
      ),
    );
    expect(await post('/v1/apply', { scope: { namespace: 'team/app', brnach: 'dev' }, documents })).toEqual(
      refused('scope: unknown field "brnach"; it takes namespace, branch'),
    );
    expect(await post('/v1/apply', { documents: [{ key: 'a', contnet: 'x' }] })).toEqual(
      refused(
        'documents[0]: unknown field "contnet"; it takes key, content, delete; documents[0]: give either content or "delete": true',
      ),
    );
    expect(await post('/v1/rollback', { revison_id: 1 })).toEqual(
      refused(
        'body: unknown field "revison_id"; this endpoint takes scope, revision_id, checkpoint_name, message, expected_revision, contents',
      ),
    );
    expect(await post('/v1/branches', { name: 'x', expected_revision: 1 })).toEqual(
      refused(
        'body: unknown field "expected_revision"; this endpoint takes scope, name, from_revision, from_checkpoint',
      ),
    );
    expect(await post('/v1/checkpoints', { scope: { namespace: 'team/app' }, name: 'v1' }, 'DELETE')).toEqual(
      refused('body: unknown field "scope"; this endpoint takes namespace, name, expected_revision'),
    );
  });

  it('names the bound of body integers too large for a double', async () => {
    const post = (path: string, body: unknown) => socket.send('POST', path, body);
    expect(await post('/v1/gc', { keep: 9007199254740992 })).toEqual(refused('keep must be at most 9007199254740991'));
    expect(await post('/v1/diff', { scope: { namespace: 'team/app' }, revision_id: 1e300 })).toEqual(
      refused('revision_id must be at most 9007199254740991'),
    );
    expect(
      await post('/v1/apply', {
        scope: { namespace: 'team/app' },
        documents: [{ key: 'a', content: 'x' }],
        expected_revision: 2 ** 60,
      }),
    ).toEqual(refused('expected_revision must be at most 9007199254740991'));
    expect(await post('/v1/gc', { keep: 1.5 })).toEqual(refused('keep must be an integer'));
  });
});
