import { codecFor } from '../formats/codec.js';
import type { ChatBody } from '../formats/chat/chat-schema.js';
import type { GatewayDeployment } from '../model-registry/deployment.js';
import {
  executeChat,
  executeEmbeddings,
  inferProvider,
  KNOWN_PROVIDERS,
  resolveProvider,
  UpstreamError,
} from '../providers/index.js';
import type { ProviderPort } from './provider-port.js';

/** The pipeline's provider port over the provider layer (src/server/gateway/providers). */
export const providerLayer: ProviderPort = {
  executeChat: (call) => executeChat({ ...call, body: call.body as ChatBody }),
  executeEmbeddings: (call) => executeEmbeddings(call),
  inferProvider: (model, deployments) => inferProvider(model, deployments),
  deploymentProblem,
  errorFrame: (format, message) => codecFor(format).errorFrame(message),
};

/**
 * Asks the provider layer what it would do at request time: resolving the provider reads the base URL
 * (the deployment's, the provider's environment variable, the public default) and fails without one.
 */
function deploymentProblem(deployment: GatewayDeployment): string | undefined {
  const { provider } = deployment;
  if (!KNOWN_PROVIDERS.includes(provider))
    return `provider must be one of ${KNOWN_PROVIDERS.join(', ')}, got '${provider}'`;
  try {
    resolveProvider(deployment);
  } catch (error) {
    if (!(error instanceof UpstreamError && error.upstreamType === 'configuration')) throw error;
    return `base_url is required: provider '${provider}' has no default address (set base_url, or providers.${provider}.base_url in the configuration)`;
  }
  return undefined;
}
