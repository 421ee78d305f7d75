import { anthropicChatProvider } from './anthropic/anthropic-provider.js';
import { demoChatProvider } from './demo/demo-provider.js';
import { demoEmbeddingsProvider } from './demo/demo-embeddings.js';
import { openAiChatProvider, openAiEmbeddingsProvider } from './openai-compatible/openai-provider.js';
import { providerSettings } from './provider-settings.js';
import type { Deployment, ResolvedProvider } from './types.js';

/**
 * Resolved providers per deployment: a deployment object never changes (the registry replaces it
 * whole), and building the provider reads settings and the environment, work the hot path need not
 * repeat for every request.
 */
const resolved = new WeakMap<Deployment, ResolvedProvider>();

/** The provider implementation behind a deployment: Anthropic, demo, or OpenAI-compatible for the rest. */
export function resolveProvider(deployment: Deployment): ResolvedProvider {
  let provider = resolved.get(deployment);
  if (provider === undefined) {
    provider = buildProvider(deployment);
    resolved.set(deployment, provider);
  }
  return provider;
}

function buildProvider(deployment: Deployment): ResolvedProvider {
  switch (deployment.provider) {
    case 'demo':
      return { chat: demoChatProvider, embeddings: demoEmbeddingsProvider, secrets: [] };
    case 'anthropic': {
      const settings = providerSettings(deployment);
      return { chat: anthropicChatProvider(settings), embeddings: undefined, secrets: settings.secrets };
    }
    default: {
      const settings = providerSettings(deployment);
      return {
        chat: openAiChatProvider(settings),
        embeddings: openAiEmbeddingsProvider(settings),
        secrets: settings.secrets,
      };
    }
  }
}

/** Whether a provider offers embeddings (Anthropic does not). */
export function supportsEmbeddings(provider: string): boolean {
  return provider !== 'anthropic';
}

/** `upstreamModel` without a leading `<provider>/` (`ollama/llama3.2` -> `llama3.2`). */
export function upstreamModelName(deployment: Deployment): string {
  const prefix = `${deployment.provider}/`;
  return deployment.upstreamModel.startsWith(prefix)
    ? deployment.upstreamModel.slice(prefix.length)
    : deployment.upstreamModel;
}
