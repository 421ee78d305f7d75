import { invalidConfiguration } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { bearerSecretProblem } from '../config/bearer-secret.js';
import { resolveSecret, type ResolvedSecret } from '../config/secrets.js';
import type { StoreTokenGrant } from './store-auth.js';

/** Why a token from the environment cannot be used, as for `store.auth.tokens[].token` in the file. */
const unusable = (token: string): string | undefined => bearerSecretProblem('a store token', token);

/**
 * Tokens configured twice, named by where each comes from (never the value): a request is
 * authenticated as the first grant holding its token, so the later one's verbs and namespaces would
 * silently never apply, and a restricted entry would shadow STORE_TOKEN's full access. A token that is
 * also the master key is refused too.
 */
function sharedTokens(config: Config, env: NodeJS.ProcessEnv): string[] {
  const sources: Array<readonly [where: string, token: string | undefined]> = config.store.auth.tokens.map(
    (entry, index) =>
      entry.token !== undefined
        ? [`store.auth.tokens[${index}].token`, entry.token]
        : [`store.auth.tokens[${index}].token_env (${entry.token_env})`, env[entry.token_env!]],
  );
  sources.push(['STORE_TOKEN', env.STORE_TOKEN]);
  const first = new Map<string, string>();
  const problems: string[] = [];
  for (const [where, token] of sources) {
    if (!token) continue;
    // Store tokens are handed to agents and tools; this one would also open the admin API (/internal/*).
    if (token === env.PROXY_MASTER_KEY) {
      problems.push(
        `${where}: the same value as PROXY_MASTER_KEY, so whoever is given this store token also holds the master key, which opens the gateway's admin API (/internal/*); give the store its own token`,
      );
      continue;
    }
    const earlier = first.get(token);
    if (earlier === undefined) first.set(token, where);
    else
      problems.push(
        `${where}: the same token as ${earlier}, whose grants alone would apply to it; give each its own token`,
      );
  }
  return problems;
}

/** What is wrong with the store's tokens as configured and set in `env`, each naming its key or variable. */
export function storeTokenProblems(config: Config, env: NodeJS.ProcessEnv): string[] {
  return readStoreTokens(config, env).problems;
}

/** The configured tokens as grants, and what keeps any of them from being one. */
function readStoreTokens(config: Config, env: NodeJS.ProcessEnv): { grants: StoreTokenGrant[]; problems: string[] } {
  const grants: StoreTokenGrant[] = [];
  const problems: string[] = [];
  config.store.auth.tokens.forEach((entry, index) => {
    const token = entry.token ?? (entry.token_env ? env[entry.token_env] : undefined);
    const key = `store.auth.tokens[${index}].token_env`;
    if (!token) problems.push(`${key}: ${entry.token_env} is not set in the environment`);
    else if (unusable(token)) problems.push(`${key}: ${entry.token_env} ${unusable(token)}`);
    else
      grants.push({
        name: entry.name ?? `token-${index + 1}`,
        token,
        verbs: entry.verbs,
        namespaces: entry.namespaces,
        ...(entry.branches === undefined ? {} : { branches: entry.branches }),
      });
  });
  if (env.STORE_TOKEN && unusable(env.STORE_TOKEN)) problems.push(`STORE_TOKEN: ${unusable(env.STORE_TOKEN)}`);
  problems.push(...sharedTokens(config, env));
  return { grants, problems };
}

/**
 * The store's token grants: the config file's list, plus `STORE_TOKEN` (full access); with neither,
 * a generated token kept beside the master key. A token that is missing or too short from the
 * environment is a configuration error naming the variable.
 */
export function resolveStoreTokens(
  config: Config,
  env: NodeJS.ProcessEnv,
): { grants: StoreTokenGrant[]; primary?: ResolvedSecret } {
  const { grants, problems } = readStoreTokens(config, env);
  if (problems.length > 0) throw invalidConfiguration(problems);
  if (!config.store.auth.enabled) return { grants };
  if (env.STORE_TOKEN || grants.length === 0) {
    const primary = resolveSecret({
      envValue: env.STORE_TOKEN,
      dataDir: config.server.data_dir!,
      file: 'store.token',
      prefix: 'st-',
      what: 'a store token',
    });
    grants.push({ name: 'primary', token: primary.value, verbs: ['read', 'write', 'admin'], namespaces: ['*'] });
    return { grants, primary };
  }
  return { grants };
}
