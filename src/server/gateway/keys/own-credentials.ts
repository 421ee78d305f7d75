import type { Config } from '../../config/schema.js';

/** One of Gatehouse's own credentials, and what to call it in a refusal (never its value). */
export interface OwnCredential {
  readonly secret: string;
  readonly what: string;
}

/**
 * Gatehouse's credentials besides the master key: the store's tokens and the SSO client secrets. With
 * passthrough keys on, whatever a caller presents that is not an issued key goes to the provider as
 * the caller's own key; these must not, as a client configured with the wrong secret would send them.
 */
export function ownCredentials(options: {
  readonly config: Config;
  readonly storeTokens?: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
}): OwnCredential[] {
  const env = options.env ?? process.env;
  const credentials = (options.storeTokens ?? []).map((secret) => ({ secret, what: 'a store token' }));
  for (const [id, provider] of Object.entries(options.config.sso.providers)) {
    const secret = env[provider.client_secret_env];
    if (secret) credentials.push({ secret, what: `the client secret of sso.providers.${id}` });
  }
  return credentials;
}
