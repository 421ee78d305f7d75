import { invalidConfiguration } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { resolveSecret, type ResolvedSecret } from '../config/secrets.js';
import type { StoreTokenGrant } from './store-auth.js';

/** The shortest token accepted from any source, as for `store.auth.tokens[].token` in the file. */
const MIN_TOKEN_LENGTH = 16;

/** The length only: the value is a secret, even a weak one. */
const tooShort = (token: string): string =>
  `holds ${token.length} characters; a store token needs at least ${MIN_TOKEN_LENGTH}, guessable otherwise`;

/**
 * The store's token grants: the config file's list, plus `STORE_TOKEN` (full access); with neither,
 * a generated token kept beside the master key. A token that is missing or too short from the
 * environment is a configuration error naming the variable.
 */
export function resolveStoreTokens(
  config: Config,
  env: NodeJS.ProcessEnv,
): { grants: StoreTokenGrant[]; primary?: ResolvedSecret } {
  const grants: StoreTokenGrant[] = [];
  const problems: string[] = [];
  config.store.auth.tokens.forEach((entry, index) => {
    const token = entry.token ?? (entry.token_env ? env[entry.token_env] : undefined);
    const key = `store.auth.tokens[${index}].token_env`;
    if (!token) problems.push(`${key}: ${entry.token_env} is not set in the environment`);
    else if (token.length < MIN_TOKEN_LENGTH) problems.push(`${key}: ${entry.token_env} ${tooShort(token)}`);
    else
      grants.push({
        name: entry.name ?? `token-${index + 1}`,
        token,
        verbs: entry.verbs,
        namespaces: entry.namespaces,
      });
  });
  if (env.STORE_TOKEN && env.STORE_TOKEN.length < MIN_TOKEN_LENGTH)
    problems.push(`STORE_TOKEN: ${tooShort(env.STORE_TOKEN)}`);
  if (problems.length > 0) throw invalidConfiguration(problems);
  if (!config.store.auth.enabled) return { grants };
  if (env.STORE_TOKEN || grants.length === 0) {
    const primary = resolveSecret({
      envValue: env.STORE_TOKEN,
      dataDir: config.server.data_dir!,
      file: 'store.token',
      prefix: 'st-',
    });
    grants.push({ name: 'primary', token: primary.value, verbs: ['read', 'write', 'admin'], namespaces: ['*'] });
    return { grants, primary };
  }
  return { grants };
}
