import { KEY_PREFIX } from '../keys/key-secret.js';
import { providerSettings } from '../providers/provider-settings.js';
import type { ModelRegistry } from './model-registry.js';

/**
 * Deployments whose provider key is a key this gateway issued (`gk-...`): the usual cause is
 * `export OPENAI_API_KEY=$(npm run -s login)` in the shell that then starts the gateway, which reads
 * that variable as OpenAI's key, so every call would hand a Gatehouse key to the provider (and fail
 * there with 401). Said, not refused: a deployment may be another Gatehouse, whose keys look the same.
 */
export function issuedKeysSentUpstream(
  registry: Pick<ModelRegistry, 'routableDeployments'>,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  const problems: string[] = [];
  for (const deployment of registry.routableDeployments()) {
    let settings: ReturnType<typeof providerSettings>;
    try {
      settings = providerSettings(deployment, env);
    } catch {
      continue; // No address at all: another warning says so.
    }
    if (!settings.apiKey?.trim().startsWith(KEY_PREFIX)) continue;
    problems.push(
      `deployment ${deployment.id}: its ${deployment.provider} key is a key issued by Gatehouse (${KEY_PREFIX}...), which would be sent to ${settings.baseUrl} as the provider's key: unless that is another Gatehouse, put the provider's own key there (a key from npm run login belongs in the client's environment, not the gateway's)`,
    );
  }
  return problems;
}
