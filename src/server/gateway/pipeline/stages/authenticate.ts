import type { IncomingHttpHeaders } from 'node:http';
import { bearerToken, notBearerHint, secretsEqual } from '../../../http/secrets.js';
import { forbidden, unauthorized } from '../../../http/errors.js';
import { isIssuedKey, KEY_PREFIX } from '../../keys/key-secret.js';
import { hasScope, type RequiredScope } from '../../keys/scopes.js';
import { KEY_REJECTION_MESSAGES } from '../../keys/keys.service.js';
import { unknownKeyHint } from '../../keys/unknown-key-hint.js';
import type { Endpoint, RequestContext } from '../request-context.js';

/**
 * The scope each endpoint needs; the listings (`/v1/models`, `/v1/rag/collections`) need only a valid
 * key: what they list is what the key may use.
 */
function requiredScope(endpoint: Endpoint): RequiredScope | undefined {
  switch (endpoint) {
    case 'chat':
    case 'messages':
    case 'count_tokens':
      return 'chat';
    case 'responses':
    case 'stored_responses':
      return 'responses';
    case 'embeddings':
      return 'embeddings';
    case 'models':
    case 'rag_collections':
      return undefined;
  }
}

/** A non-empty `x-api-key` header, trimmed. */
function apiKeyHeader(headers: IncomingHttpHeaders): string | undefined {
  const header = headers['x-api-key'];
  const value = typeof header === 'string' ? header.trim() : '';
  return value === '' ? undefined : value;
}

/** Endpoints Anthropic clients call, which send their key in `x-api-key`. */
const reads = (endpoint: Endpoint): boolean =>
  endpoint === 'messages' || endpoint === 'count_tokens' || endpoint === 'models';

/**
 * The presented credential, as the authentication table assigns it: where Anthropic clients call
 * (/v1/messages, and /v1/models, which their SDKs list models with) `x-api-key` is the credential and
 * Bearer its fallback; everywhere else Bearer alone, so an `x-api-key` there is not read.
 */
function presentedKey(headers: IncomingHttpHeaders, endpoint: Endpoint): string | undefined {
  if (reads(endpoint)) return apiKeyHeader(headers) ?? bearerToken(headers.authorization);
  return bearerToken(headers.authorization);
}

/** Why no credential was found, in the words of the endpoint's own credential. */
function missingKeyMessage(headers: IncomingHttpHeaders, endpoint: Endpoint): string {
  const malformed = notBearerHint(headers.authorization);
  if (reads(endpoint))
    return `missing API key: send x-api-key: <API_KEY> or Authorization: Bearer <API_KEY>${malformed}`;
  const hint = apiKeyHeader(headers) !== undefined ? ' (x-api-key is read only on /v1/messages and /v1/models)' : '';
  return `missing API key: send Authorization: Bearer <API_KEY>${hint || malformed}`;
}

/**
 * Authentication: finds the principal and checks the endpoint's scope. Runs before the body is parsed, so a
 * caller without a valid key learns nothing from validation errors.
 */
export function authenticate(ctx: RequestContext): void {
  const { keys, masterKey, config } = ctx.services;
  const secret = presentedKey(ctx.headers, ctx.endpoint);
  if (secret === undefined) throw unauthorized(missingKeyMessage(ctx.headers, ctx.endpoint));
  if (isIssuedKey(secret) || !(config.allow_passthrough_keys && ctx.endpoint === 'embeddings')) {
    const check = keys.check(secret);
    if (!check.ok) {
      if (secretsEqual(secret, masterKey))
        throw unauthorized('the master key is for /internal/* only; use an API key issued by POST /internal/api-keys');
      const hint = check.reason === 'unknown' ? unknownKeyHint(secret, config.allow_passthrough_keys) : '';
      throw unauthorized(`${KEY_REJECTION_MESSAGES[check.reason]}${hint}`);
    }
    // An SSO key whose membership the provider could not confirm for too long: the refresh round sets it.
    const suspended = ctx.services.sso.sessions.suspensionOf(check.key.row);
    if (suspended !== undefined) throw unauthorized(suspended);
    ctx.principal = { kind: 'key', key: check.key };
    const scope = requiredScope(ctx.endpoint);
    if (scope !== undefined && !hasScope(check.key.row.scopes, scope)) {
      throw forbidden(`API key ${check.key.row.id} lacks the ${scope} scope required by ${ctx.path}`);
    }
  } else {
    refuseOwnCredential(ctx, secret);
    ctx.principal = { kind: 'passthrough', providerKey: secret };
  }
}

/**
 * A caller's own provider key is forwarded to the provider as it is: Gatehouse's own credentials (the
 * master key, a store token, an SSO client secret, an issued key sent without its prefix) never are,
 * whoever sends them by mistake.
 */
function refuseOwnCredential(ctx: RequestContext, secret: string): void {
  const { keys, masterKey, ownCredentials } = ctx.services;
  if (secretsEqual(secret, masterKey))
    throw unauthorized('the master key is for /internal/* only; use an API key issued by POST /internal/api-keys');
  for (const own of ownCredentials)
    if (secretsEqual(secret, own.secret))
      throw unauthorized(
        `${own.what} is not a provider key and is never sent to one: send your provider's key, or an API key issued by POST /internal/api-keys`,
      );
  // Any key issued here, in use or not (an expired one may be extended again).
  const issued = keys.check(`${KEY_PREFIX}${secret}`);
  if (issued.ok || issued.reason !== 'unknown')
    throw unauthorized(`this is an API key issued here without its ${KEY_PREFIX} prefix: send the key whole`);
}
