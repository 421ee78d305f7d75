import { outputTokens } from '../limits.js';
import { messagesRequestSchema, type MessagesBody } from './messages-schema.js';

/**
 * The body of `POST /v1/messages/count_tokens`: a Messages request whose `max_tokens` may be left
 * out, since nothing is generated. Everything else is checked as for Messages, so a request that
 * counts is one that could be sent.
 */
export const countTokensRequestSchema = messagesRequestSchema.extend({ max_tokens: outputTokens().optional() });

/** A validated count_tokens request. */
export type CountTokensBody = Omit<MessagesBody, 'max_tokens'> & { max_tokens?: number };
