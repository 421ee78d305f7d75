import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Counter } from 'prom-client';
import { forbidden, unauthorized } from '../../http/errors.js';
import { bearerToken, generatedFileText, missingBearerMessage, secretsEqual } from '../../http/secrets.js';
import { isIssuedKey } from '../keys/key-secret.js';
import { trackAdminClients } from './admin-client.js';

/** At most one log line per this long for refused master keys, each counting those it stands for. */
const REFUSAL_LOG_EVERY_MS = 10_000;

/**
 * Requires `Authorization: Bearer <PROXY_MASTER_KEY>` on every route of `app`, and on every path under
 * its prefix that matches none (constant-time compare).
 * Each admin change is audited with the client it came from (address, user agent, declared author).
 * A valid API key is refused with 403, any other credential with 401.
 * Each refusal is counted in `refusals`; a wrong key (someone guessing, or a script holding a stale
 * one) is also logged as a warning, at most once per ten seconds so a flood cannot fill the log.
 */
export function requireMasterKey(app: FastifyInstance, masterKey: string, refusals: Counter): void {
  let unlogged = 0;
  let loggedAt = -Infinity;
  const logWrongKey = (request: FastifyRequest): void => {
    unlogged += 1;
    const now = performance.now();
    if (now - loggedAt < REFUSAL_LOG_EVERY_MS) return;
    // Where it came from and what it asked for; never the key that was sent.
    // The app's logger: a request's own logs nothing unless every request is logged.
    app.log.warn(
      {
        remote: request.ip,
        method: request.method,
        path: request.routeOptions.url ?? request.url.split('?')[0],
        refused: unlogged,
      },
      'admin API: wrong master key refused',
    );
    loggedAt = now;
    unlogged = 0;
  };
  app.addHook('onRequest', (request, _reply, done) => {
    const token = bearerToken(request.headers.authorization);
    if (token === undefined) {
      refusals.inc();
      return done(
        unauthorized(
          missingBearerMessage('master key', 'PROXY_MASTER_KEY', request.headers.authorization, 'master.key'),
        ),
      );
    }
    if (!secretsEqual(token, masterKey)) {
      refusals.inc();
      logWrongKey(request);
      // A working API key is a real credential without the right: 403 says so. Looked up on this
      // refusal path only (the keys' memory, or one hash), never for the admin's own requests.
      if (isIssuedKey(token) && app.gateway.keys.check(token).ok)
        return done(
          forbidden(
            `this is an API key; /internal/* needs the master key, PROXY_MASTER_KEY (or ${generatedFileText('master.key')})`,
          ),
        );
      return done(
        unauthorized(
          `invalid master key; /internal/* needs PROXY_MASTER_KEY (or ${generatedFileText('master.key')}), not an API key`,
        ),
      );
    }
    done();
  });
  // Whoever holds the key acts as an admin: the audit trail records which client each change came from.
  trackAdminClients(app);
  // A path under the prefix that matches no route is refused the same way first: a 404 (with its
  // suggestions of real routes) to a caller without the key would let anyone map the admin API.
  app.setNotFoundHandler((request, reply) => app.answerNoRoute(request, reply));
}
