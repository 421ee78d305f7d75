import { providerSettings, KNOWN_PROVIDERS } from './provider-settings.js';
import type { Deployment } from './types.js';
import { UpstreamError } from './upstream-error.js';
import { closestName } from '../../../shared/closest-name.js';

/**
 * What keeps a deployment from ever being called, worded `<field> <problem>` (an unknown provider, no
 * base URL anywhere), or undefined when it can be called. Asks the provider layer what it would do at
 * request time, so configuration and admin saves refuse what would only fail later.
 */
export function deploymentProblem(deployment: Deployment, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const { provider } = deployment;
  if (!KNOWN_PROVIDERS.includes(provider)) {
    const meant = closestName(provider, KNOWN_PROVIDERS);
    return `provider must be one of ${KNOWN_PROVIDERS.join(', ')}, got '${provider}'${meant !== undefined ? ` (did you mean ${meant}?)` : ''}`;
  }
  if (provider === 'demo') return undefined;
  try {
    providerSettings(deployment, env);
  } catch (error) {
    if (!(error instanceof UpstreamError && error.upstreamType === 'configuration')) throw error;
    return `base_url is required: provider '${provider}' has no default address (set base_url, or providers.${provider}.base_url in the configuration)`;
  }
  return undefined;
}
