import type { Config } from '../config/schema.js';
import { resolveSecret, type ResolvedSecret } from '../config/secrets.js';
import type { StoreTokenGrant } from './store-auth.js';

/**
 * The store's token grants: the config file's list, plus `STORE_TOKEN` (full access); with neither,
 * a generated token kept beside the master key.
 */
export function resolveStoreTokens(
  config: Config,
  env: NodeJS.ProcessEnv,
): { grants: StoreTokenGrant[]; primary?: ResolvedSecret } {
  const grants: StoreTokenGrant[] = [];
  config.store.auth.tokens.forEach((entry, index) => {
    const token = entry.token ?? (entry.token_env ? env[entry.token_env] : undefined);
    if (!token) throw new Error(`store.auth.tokens.${index}: environment variable ${entry.token_env} is not set`);
    grants.push({ name: entry.name ?? `token-${index + 1}`, token, verbs: entry.verbs, namespaces: entry.namespaces });
  });
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
