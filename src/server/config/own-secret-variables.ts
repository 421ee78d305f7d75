import type { Config } from './schema.js';

/**
 * The environment variables that hold Gatehouse's own credentials, each with what it holds: the
 * master key, the store's tokens and the SSO client secrets. A deployment's `api_key_env` may not
 * name one, since its value would go out as the provider key to whatever address the deployment has
 * (the admin API can set that address), and whoever runs that address would hold the credential.
 */
export function ownSecretVariables(config: Config): ReadonlyMap<string, string> {
  const variables = new Map<string, string>([
    ['PROXY_MASTER_KEY', 'the master key'],
    ['STORE_TOKEN', 'the store token'],
  ]);
  config.store.auth.tokens.forEach((entry, index) => {
    if (entry.token_env) variables.set(entry.token_env, `the store token store.auth.tokens[${index}]`);
  });
  for (const [id, provider] of Object.entries(config.sso.providers)) {
    variables.set(provider.client_secret_env, `the client secret of sso.providers.${id}`);
  }
  return variables;
}
