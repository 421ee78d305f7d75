import { KEY_PREFIX } from './key-secret.js';

/** An identity provider's token (a JWT: three base64url parts, the first a JSON header). */
const JWT = /^eyJ[\w-]*\.[\w-]+\.[\w-]*$/;
/** Shapes of the providers' own keys: OpenAI's `sk-…` (and `sk-proj-…`), Anthropic's `sk-ant-…`, Gemini's `AIza…`. */
const PROVIDER_KEY = /^(sk-|AIza)/;

/**
 * What a key of no telling shape is told: a mistyped, truncated or made-up key, or one from another
 * gateway's data folder, and where a working one comes from.
 */
const NO_SUCH_KEY =
  ": this gateway issued no key with this secret (a revoked or expired key is told so); get one from POST /internal/api-keys with the master key, or on the UI's Keys screen";

/**
 * What an unknown key is told beyond "invalid API key", when its shape says what it is: the two
 * mistakes a new user makes are sending the IdP's token (other gateways take those) and sending the
 * provider's key the SDK was set up with; any other key is told where one comes from. Only the shape
 * is read; the key itself is never echoed.
 */
export function unknownKeyHint(secret: string, passthroughOn: boolean): string {
  if (JWT.test(secret))
    return ": this is a JSON Web Token, and the gateway takes only the API keys it issues, not an identity provider's tokens: sign in with single sign-on (npm run login, or Sign in on the UI) for a key, or ask for one issued by POST /internal/api-keys";
  if (PROVIDER_KEY.test(secret) && !secret.startsWith(KEY_PREFIX))
    return passthroughOn
      ? `: this looks like a provider's own key, which is forwarded on /v1/embeddings alone; elsewhere send an API key the gateway issued (${KEY_PREFIX}…)`
      : `: this looks like a provider's own key; send an API key the gateway issued (${KEY_PREFIX}…). Provider keys are forwarded to the provider only on /v1/embeddings, with allow_passthrough_keys: true in the configuration`;
  return NO_SUCH_KEY;
}
