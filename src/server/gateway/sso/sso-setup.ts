import type { Config } from '../../config/schema.js';
import { invalidConfiguration } from '../../config/load.js';
import type { OidcClient } from './oidc-client.js';

/** What keeps the configured sign-in providers from being set up, each naming its key. */
export function ssoSetupIssues(config: Config, env: NodeJS.ProcessEnv): string[] {
  const issues: string[] = [];
  for (const [id, provider] of Object.entries(config.sso.providers)) {
    if (!env[provider.client_secret_env])
      issues.push(
        `sso.providers.${id}.client_secret_env: the environment variable ${provider.client_secret_env} is not set`,
      );
    if (!provider.allow_insecure_http && new URL(provider.issuer).protocol === 'http:')
      issues.push(`sso.providers.${id}.issuer: an http issuer needs allow_insecure_http: true (use https)`);
  }
  return issues;
}

/**
 * The configured providers' clients, with their secrets read from the environment. A provider whose
 * secret variable is unset stops the start (ConfigError naming the key, never a value). The OpenID
 * client library is loaded only when a provider is configured: a gateway without single sign-on
 * does not hold it in memory.
 */
export async function loadOidcClients(config: Config, env: NodeJS.ProcessEnv): Promise<Map<string, OidcClient>> {
  const clients = new Map<string, OidcClient>();
  const providers = Object.entries(config.sso.providers);
  if (providers.length === 0) return clients;
  const issues = ssoSetupIssues(config, env);
  if (issues.length > 0) throw invalidConfiguration(issues);
  const { OidcClient: Client } = await import('./oidc-client.js');
  for (const [id, provider] of providers) clients.set(id, new Client(id, provider, env[provider.client_secret_env]!));
  return clients;
}

/** The shortest refresh interval of the configured providers, in ms (how often the refresher looks for due sessions). */
export function refreshTick(config: Config): number | undefined {
  const intervals = Object.values(config.sso.providers).map((p) => p.refresh_interval_seconds * 1000);
  if (intervals.length === 0) return undefined;
  return Math.min(60_000, Math.max(1000, Math.min(...intervals) / 4));
}
