/**
 * Client formats of the gateway: request schemas and validators (messages name the field),
 * text visitors, the IR both formats map to and from, SSE encoders and decoders, and codecs.
 *
 * ```ts
 * validateChatRequest(body): { ok: true; value: ChatBody } | { ok: false; message; param }
 * validateMessagesRequest(body): { ok: true; value: MessagesBody } | { ok: false; message; param }
 * validateEmbeddingsRequest(body): { ok: true; value: EmbeddingsBody } | { ok: false; message; param }
 * formatIssues(zodIssues): string            // same messages for fastify-type-provider-zod errors
 * visitChatRequestText(body, visitor) / visitMessagesRequestText(body, visitor)
 * visitChatResponseText(body, visitor) / visitMessagesResponseText(body, visitor)
 * codecFor(format): FormatCodec              // IR mapping, stream encode/decode, relays, error frames
 *
 * // Responses over a chat provider (groundwork; not yet a ClientFormat of executeChat):
 * validateResponsesRequest(body); responsesRequestToIr(body): IrRequest
 * responsesResponseFromIr(ir, responseEnvelope(body, publicModel), usage)
 * encodeResponsesStream(irEvents, envelope, usage): AsyncIterable<string>; responsesErrorFrame(message)
 * ```
 */
export { chatRequestSchema, validateChatRequest, type ChatBody, type ChatMessage } from './chat/chat-schema.js';
export { messagesRequestSchema, validateMessagesRequest, type MessagesBody } from './messages/messages-schema.js';
export {
  embeddingsRequestSchema,
  validateEmbeddingsRequest,
  type EmbeddingsBody,
  type EmbeddingsResponse,
} from './embeddings/embeddings-schema.js';
export { responsesRequestSchema, validateResponsesRequest, type ResponsesBody } from './responses/responses-schema.js';
export { responsesRequestToIr } from './responses/responses-request-ir.js';
export { responseEnvelope, responsesResponseFromIr, type ResponseEnvelope } from './responses/responses-response-ir.js';
export { encodeResponsesStream, responsesErrorFrame } from './responses/responses-stream-encoder.js';
export { formatIssue, formatIssues, validate, type Validated } from './validation.js';
export { visitChatRequestText, visitChatResponseText } from './chat/chat-text-visitor.js';
export { visitMessagesRequestText, visitMessagesResponseText } from './messages/messages-text-visitor.js';
export type { TextLocation, TextVisitor } from './text-visitor.js';
export { chatCodec, codecFor, messagesCodec, type ClientFormat, type FormatCodec } from './codec.js';
export { TranslationError } from './translation-error.js';
export { StreamError } from './stream-error.js';
export { SseParser, parseSse, dataFrame, eventFrame, DONE_FRAME, type SseEvent } from './sse.js';
export { estimateTokens, estimatePromptTokens } from './token-estimate.js';
export type * from './ir.js';
