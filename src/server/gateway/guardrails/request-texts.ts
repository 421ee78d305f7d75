import type { ChatBody } from '../formats/chat/chat-schema.js';
import { visitChatRequestText } from '../formats/chat/chat-text-visitor.js';
import type { EmbeddingsBody } from '../formats/embeddings/embeddings-schema.js';
import {
  tokenIdInputs,
  visitEmbeddingsInputText,
  type TokenIdInputs,
} from '../formats/embeddings/embeddings-text-visitor.js';
import type { MessagesBody } from '../formats/messages/messages-schema.js';
import { visitMessagesRequestText } from '../formats/messages/messages-text-visitor.js';
import type { ResponsesBody } from '../formats/responses/responses-schema.js';
import { visitResponsesRequestText } from '../formats/responses/responses-text-visitor.js';
import type { TextVisitor, VisitOptions } from '../formats/text-visitor.js';
import type { Endpoint } from '../pipeline/request-context.js';

const EVERY_TEXT: VisitOptions = { toolArguments: true, passedThrough: true };

/**
 * Visits every text a request carries, tool-call arguments and the parts forwarded unread included,
 * with its format's text visitor: what the PII stage scrubs and the content policy reads. Endpoints without text visit nothing.
 */
export function visitRequestTexts(endpoint: Endpoint, body: Record<string, unknown>, visitor: TextVisitor): void {
  switch (endpoint) {
    case 'chat':
      return visitChatRequestText(body as unknown as ChatBody, visitor, EVERY_TEXT);
    case 'messages':
    case 'count_tokens':
      return visitMessagesRequestText(body as unknown as MessagesBody, visitor, EVERY_TEXT);
    case 'responses':
      return visitResponsesRequestText(body as ResponsesBody, visitor, EVERY_TEXT);
    case 'embeddings':
      return visitEmbeddingsInputText(body as unknown as EmbeddingsBody, visitor);
    case 'models':
    case 'rag_collections':
    case 'stored_responses':
      return;
    default:
      endpoint satisfies never;
  }
}

/** What the request gives as token ids instead of text (embeddings input), which no text rule can read. */
export function requestTokenIds(endpoint: Endpoint, body: Record<string, unknown>): TokenIdInputs | undefined {
  return endpoint === 'embeddings' ? tokenIdInputs(body as unknown as EmbeddingsBody) : undefined;
}
