import { KNOWN_PROVIDERS } from './provider-settings.js';
import type { Deployment } from './types.js';

/**
 * The provider of a model name, as LiteLLM infers it: an explicit known prefix wins
 * (`ollama/llama3.2`), then well-known families (`gpt-*`, `o1*`/`o3*`/`o4*`, `text-embedding-*`,
 * `chatgpt-*` -> openai; `claude-*` -> anthropic), then the deployment list. Undefined when none
 * applies (the caller answers 400 model_not_allowed).
 */
export function inferProvider(
  model: string,
  deployments: readonly Pick<Deployment, 'model' | 'provider'>[] = [],
): string | undefined {
  const slash = model.indexOf('/');
  if (slash > 0) {
    const prefix = model.slice(0, slash).toLowerCase();
    if (KNOWN_PROVIDERS.includes(prefix)) return prefix;
  }
  if (/^(gpt-|chatgpt-|o[134]|text-embedding-)/.test(model)) return 'openai';
  if (model.startsWith('claude-')) return 'anthropic';
  return deployments.find((deployment) => deployment.model === model)?.provider;
}
