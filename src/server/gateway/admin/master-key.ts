import type { FastifyInstance } from 'fastify';
import { unauthorized } from '../../http/errors.js';
import { bearerToken, missingBearerMessage, secretsEqual } from '../../http/secrets.js';

/** Requires `Authorization: Bearer <PROXY_MASTER_KEY>` on every route of `app` (constant-time compare). */
export function requireMasterKey(app: FastifyInstance, masterKey: string): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const token = bearerToken(request.headers.authorization);
    if (token === undefined)
      return done(unauthorized(missingBearerMessage('master key', 'PROXY_MASTER_KEY', request.headers.authorization)));
    if (!secretsEqual(token, masterKey))
      return done(unauthorized('invalid master key; /internal/* needs PROXY_MASTER_KEY, not an API key'));
    done();
  });
}
