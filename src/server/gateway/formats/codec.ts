import { relayChatJson, relayChatStream } from './chat/chat-relay.js';
import { chatRequestFromIr, chatRequestToIr } from './chat/chat-request-ir.js';
import { chatResponseFromIr, chatResponseToIr, chatUsageFromIr } from './chat/chat-response-ir.js';
import type { ChatBody } from './chat/chat-schema.js';
import { decodeChatStream } from './chat/chat-stream-decoder.js';
import { encodeChatStream } from './chat/chat-stream-encoder.js';
import type { UpstreamErrorDetail } from '../../../shared/errors.js';
import type { IrRequest, IrResponse, IrStreamEvent, Usage } from './ir.js';
import { jsonToolAsText, jsonToolEventsAsText } from './messages/json-mode.js';
import { relayMessagesJson, relayMessagesStream } from './messages/messages-relay.js';
import { messagesRequestFromIr, messagesRequestToIr } from './messages/messages-request-ir.js';
import { messagesResponseFromIr, messagesResponseToIr } from './messages/messages-response-ir.js';
import type { MessagesBody } from './messages/messages-schema.js';
import { decodeMessagesStream } from './messages/messages-stream-decoder.js';
import { encodeMessagesStream } from './messages/messages-stream-encoder.js';
import { DONE_FRAME, dataFrame, eventFrame, type SseEvent } from './sse.js';
import type { StreamUsage } from './token-estimate.js';

/** The client formats of conversation requests. */
export type ClientFormat = 'chat' | 'messages';

/** Options of a stream encoder. */
export interface EncodeOptions {
  readonly id: string;
  readonly model: string;
  readonly usage: () => Usage;
  /** Chat only: the client asked for `stream_options.include_usage`. */
  readonly includeUsage: boolean;
}

/** Options of a native relay. */
export interface RelayOptions {
  readonly publicModel: string;
  readonly usage: StreamUsage;
  /** Chat only: the client asked for `stream_options.include_usage`. */
  readonly includeUsage: boolean;
}

/** Everything the gateway does with one wire format, in both directions. */
export interface FormatCodec {
  requestToIr(body: unknown): IrRequest;
  requestFromIr(ir: IrRequest, model: string): Record<string, unknown>;
  /** An upstream answer to the IR; `request`, the IR that `requestFromIr` sent, undoes what it emulated. */
  responseToIr(json: unknown, request?: IrRequest): IrResponse;
  responseFromIr(ir: IrResponse, model: string, usage: Usage): object;
  /** An upstream stream to IR events; `request` as for responseToIr. */
  decodeStream(events: AsyncIterable<SseEvent>, request?: IrRequest): AsyncIterable<IrStreamEvent>;
  encodeStream(events: AsyncIterable<IrStreamEvent>, options: EncodeOptions): AsyncIterable<string>;
  relayStream(events: AsyncIterable<SseEvent>, options: RelayOptions): AsyncIterable<string>;
  relayJson(json: unknown, publicModel: string): { body: Record<string, unknown>; usage: Partial<Usage> | undefined };
  /** Writes complete usage into an answer whose upstream did not report it. */
  setUsage(body: Record<string, unknown>, usage: Usage): void;
  /**
   * What ends a stream that fails after it started, in the shape the format's SDKs read: chat's
   * error chunk followed by `[DONE]` (every chat stream ends with it, so clients waiting for it never hang),
   * Messages' `error` event (the end of a Messages stream). `upstream` is the provider's own words on
   * the failure, as a 502's body carries them: a stream's error event keeps its type
   * (`overloaded_error`) there for clients that branch on it.
   */
  errorFrame(message: string, upstream?: UpstreamErrorDetail): string;
}

/** Chat completions. */
export const chatCodec: FormatCodec = {
  requestToIr: (body) => chatRequestToIr(body as ChatBody),
  requestFromIr: chatRequestFromIr,
  responseToIr: chatResponseToIr,
  responseFromIr: chatResponseFromIr,
  decodeStream: decodeChatStream,
  encodeStream: encodeChatStream,
  relayStream: relayChatStream,
  relayJson: relayChatJson,
  setUsage: (body, usage) => {
    body.usage = chatUsageFromIr(usage);
  },
  // openai clients throw an APIError on a chunk carrying `error`, before they read `[DONE]`.
  errorFrame: (message, upstream) =>
    dataFrame(
      JSON.stringify({ error: { type: 'upstream_error', message, code: 502, ...(upstream && { upstream }) } }),
    ) + DONE_FRAME,
};

/** Anthropic Messages. */
export const messagesCodec: FormatCodec = {
  requestToIr: (body) => messagesRequestToIr(body as MessagesBody),
  requestFromIr: messagesRequestFromIr,
  // JSON answers were asked for as a tool call (json-mode.ts); the client gets them as text.
  responseToIr: (json, request) => jsonToolAsText(messagesResponseToIr(json), request?.responseFormat),
  responseFromIr: messagesResponseFromIr,
  decodeStream: (events, request) => jsonToolEventsAsText(decodeMessagesStream(events), request?.responseFormat),
  encodeStream: encodeMessagesStream,
  relayStream: (events, options) => relayMessagesStream(events, options.publicModel, options.usage),
  relayJson: relayMessagesJson,
  setUsage: (body, usage) => {
    body.usage = {
      ...(body.usage as object | undefined),
      input_tokens: usage.promptTokens,
      output_tokens: usage.completionTokens,
    };
  },
  errorFrame: (message, upstream) =>
    eventFrame(
      'error',
      JSON.stringify({
        type: 'error',
        error: { type: 'upstream_error', message, code: 502, ...(upstream && { upstream }) },
      }),
    ),
};

/** The codec of a client format. */
export function codecFor(format: ClientFormat): FormatCodec {
  switch (format) {
    case 'chat':
      return chatCodec;
    case 'messages':
      return messagesCodec;
  }
}
