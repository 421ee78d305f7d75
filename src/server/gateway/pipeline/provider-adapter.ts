import { codecFor } from '../formats/codec.js';
import type { ChatBody } from '../formats/chat/chat-schema.js';
import { executeChat, executeEmbeddings, inferProvider } from '../providers/index.js';
import type { ProviderPort } from './provider-port.js';

/** The pipeline's provider port over the provider layer (src/server/gateway/providers). */
export const providerLayer: ProviderPort = {
  executeChat: (call) => executeChat({ ...call, body: call.body as ChatBody }),
  executeEmbeddings: (call) => executeEmbeddings(call),
  inferProvider: (model, deployments) => inferProvider(model, deployments),
  errorFrame: (format, message) => codecFor(format).errorFrame(message),
};
