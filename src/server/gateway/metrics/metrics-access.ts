import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config/schema.js';
import { forbidden, unauthorized } from '../../http/errors.js';
import { bearerToken, generatedFileText, notBearerHint, secretsEqual } from '../../http/secrets.js';
import { isIssuedKey } from '../keys/key-secret.js';
import { KEY_REJECTION_MESSAGES } from '../keys/keys.service.js';
import { hasScope } from '../keys/scopes.js';

/** What `/metrics` accepts when it is not public, as every refusal says. */
const ACCEPTED = `PROXY_MASTER_KEY (or ${generatedFileText('master.key')}) or an API key with the metrics scope`;

/**
 * Unless `gateway.metrics_public`, `/metrics` needs `Authorization: Bearer` with the master key or an
 * API key holding the `metrics` scope (or `*`): its series name the models, deployments and spend,
 * which a gateway reachable from other machines may keep to its admins, and a scraper should not need
 * the key that administers the gateway. Checked before the route, as the admin API's key is.
 */
export function requireMetricsCredential(app: FastifyInstance, config: Config, masterKey: string): void {
  // Public, as by default, it costs the other requests nothing.
  if (config.gateway.metrics_public) return;
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.routeOptions.url !== '/metrics') return done();
    const token = bearerToken(request.headers.authorization);
    if (token === undefined)
      return done(
        unauthorized(
          `missing credential: /metrics needs Authorization: Bearer with ${ACCEPTED}${notBearerHint(request.headers.authorization)}`,
        ),
      );
    if (secretsEqual(token, masterKey)) return done();
    // Looked up only for a token that looks issued: the keys' memory, or one hash.
    const check = isIssuedKey(token) ? app.gateway.keys.check(token) : undefined;
    if (check === undefined || (!check.ok && check.reason === 'unknown'))
      return done(
        unauthorized(`invalid master key or API key; /metrics needs ${ACCEPTED} (gateway.metrics_public is false)`),
      );
    if (!check.ok) return done(unauthorized(`${KEY_REJECTION_MESSAGES[check.reason]}; /metrics needs ${ACCEPTED}`));
    // An SSO key suspended for unverified membership scrapes no more than it calls.
    const suspended = app.gateway.sso.sessions.suspensionOf(check.key.row);
    if (suspended !== undefined) return done(unauthorized(suspended));
    if (!hasScope(check.key.row.scopes, 'metrics'))
      return done(forbidden(`API key ${check.key.row.id} lacks the metrics scope required by /metrics`));
    app.gateway.keys.noteUsed(check.key.row.id);
    done();
  });
}
