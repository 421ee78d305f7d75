import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_MASTER_KEY } from '../support/temp-servers.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * A key's secret, or the master key, sent where a user's, team's or key's id goes in an /internal
 * path: the answer is a 404 saying which it is, and never repeats the secret, spaces around it or not.
 */
describe('a secret sent as a user, team or key id in an admin path', () => {
  let h: GatewayHarness;
  let secret: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    secret = (await h.issueKey({ scopes: ['chat'] })).key;
  });
  afterAll(() => h.close());

  const routes = (resource: string, id: string): ReadonlyArray<readonly [string, string, unknown?]> => [
    ['GET', `/internal/${resource}/${id}`],
    ['PATCH', `/internal/${resource}/${id}`, { name: 'renamed' }],
    ['DELETE', `/internal/${resource}/${id}`],
  ];

  it.each([
    ['users', "a user's id", 'GET /internal/users'],
    ['teams', "a team's id", 'GET /internal/teams'],
  ])(
    "answers 404 on /internal/%s/:id without echoing a key's secret or the master key",
    async (resource, noun, list) => {
      for (const id of [secret, `%20${secret}`, `${secret}%20`]) {
        for (const [method, path, body] of routes(resource, id)) {
          const answer = await h.admin(method, path, body);
          expect(answer.status, `${method} ${path}`).toBe(404);
          expect(answer.body.error.message).toBe(`that is an API key's secret, not ${noun}: find the id in ${list}`);
          expect(JSON.stringify(answer.body)).not.toContain(secret.slice(3));
        }
      }
      for (const id of [encodeURIComponent(TEST_MASTER_KEY), `%20${encodeURIComponent(TEST_MASTER_KEY)}`]) {
        for (const [method, path, body] of routes(resource, id)) {
          const answer = await h.admin(method, path, body);
          expect(answer.status, `${method} ${path}`).toBe(404);
          expect(answer.body.error.message).toBe(`that is the master key, not ${noun}: find the id in ${list}`);
          expect(JSON.stringify(answer.body)).not.toContain(TEST_MASTER_KEY.slice(3));
        }
      }
    },
  );

  it('answers 404 on /internal/api-keys/:id for a secret with a leading space, without echoing it', async () => {
    for (const [method, path, body] of [
      ...routes('api-keys', `%20${secret}`),
      ['POST', `/internal/api-keys/%20${secret}/rotate`] as const,
    ]) {
      const answer = await h.admin(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(JSON.stringify(answer.body)).not.toContain(secret.slice(3));
    }
    const master = await h.admin('GET', `/internal/api-keys/%20${encodeURIComponent(TEST_MASTER_KEY)}`);
    expect(master.status).toBe(404);
    expect(JSON.stringify(master.body)).not.toContain(TEST_MASTER_KEY.slice(3));
  });

  it('still names a user or team id that is no secret', async () => {
    expect((await h.admin('GET', '/internal/users/alice-missing')).body.error.message).toContain("'alice-missing'");
    expect((await h.admin('GET', '/internal/teams/team-missing')).body.error.message).toContain("'team-missing'");
  });
});
