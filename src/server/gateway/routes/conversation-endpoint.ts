import { codecFor, type ClientFormat } from '../formats/codec.js';
import type { ChatBody } from '../formats/chat/chat-schema.js';
import type { MessagesBody } from '../formats/messages/messages-schema.js';
import type { GatewayServices } from '../pipeline/gateway-services.js';
import type { InferenceEndpoint } from '../pipeline/pipeline.js';
import { resolveConversationModel } from '../pipeline/stages/resolve-model.js';
import { executeChat } from '../providers/index.js';

/** A conversation endpoint (chat completions, Messages) on the pipeline: its format decides the rest. */
export function conversationEndpoint(format: ClientFormat, path: string, services: GatewayServices): InferenceEndpoint {
  return {
    endpoint: format,
    path,
    resolveModel: resolveConversationModel,
    call: (ctx, deployment) =>
      executeChat({
        format,
        body: ctx.body as ChatBody | MessagesBody,
        deployment,
        pools: services.pools,
        signal: ctx.watch,
        requestId: ctx.requestId,
        headers: ctx.headers,
        traceHeaders: ctx.traceHeaders,
        report: ctx,
        outputCap: ctx.model === undefined ? undefined : services.registry.maxTokensCap(ctx.model),
      }),
    errorFrame: codecFor(format).errorFrame,
  };
}
