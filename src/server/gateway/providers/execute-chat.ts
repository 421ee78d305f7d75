import type { ChatBody } from '../formats/chat/chat-schema.js';
import { codecFor, type ClientFormat, type FormatCodec } from '../formats/codec.js';
import type { IrRequest, IrResponse, IrStreamEvent, Usage } from '../formats/ir.js';
import type { MessagesBody } from '../formats/messages/messages-schema.js';
import {
  completeUsage,
  estimatePromptTokens,
  estimateTokens,
  StreamUsage,
  tokensForChars,
} from '../formats/token-estimate.js';
import { callContext, withOutputCap, type AttemptArgs } from './call-context.js';
import { resolveProvider } from './registry.js';
import type { JsonAnswer, ProviderAnswer } from './answer.js';
import { startStream, tapUsage } from './stream-result.js';
import type { CallContext, ChatProvider, ClientHeaders, NativeChatProvider } from './types.js';

/** Arguments of one conversation call. */
export interface ExecuteChatArgs extends AttemptArgs {
  readonly format: ClientFormat;
  /** The validated client request: model already canonical, max_tokens already capped. */
  readonly body: ChatBody | MessagesBody;
  /**
   * The client's request headers (optional). Forwarded only on the native path, and only those the
   * provider documents: `anthropic-beta` for Messages requests to Anthropic. Credentials
   * (`authorization`, `x-api-key`) are never forwarded; the deployment's key is used.
   */
  readonly headers?: ClientHeaders;
}

/**
 * Runs one conversation request against one deployment and answers in the client's format.
 * Same format on both sides (chat -> OpenAI-compatible, Messages -> Anthropic): the native body is
 * re-serialised with `model` rewritten, and streams are relayed frame by frame. Otherwise the
 * request goes through the IR both ways. Rejects with UpstreamError before anything is returned
 * (streams: until the upstream's first event), TranslationError when the request cannot be
 * expressed for this provider.
 */
export function executeChat(args: ExecuteChatArgs): Promise<ProviderAnswer> {
  // Not async itself: the native path's promise is returned as it is (an async function that returns
  // a promise settles it two turns later, on every request). Failures still arrive as rejections.
  try {
    const { format, deployment } = args;
    const body = args.body as Record<string, unknown>;
    const resolved = resolveProvider(deployment);
    const provider = resolved.chat;
    const client = codecFor(format);
    // Only the native path forwards the client's own headers (the few a provider documents).
    if (provider.kind === 'native' && provider.format === format)
      return fastPath(provider, body, client, callContext(args, args.headers), resolved.secrets);
    return translated(args, provider, body, client, callContext(args), resolved.secrets);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * The client's request in the IR, converted on first use: the native path needs it only to estimate
 * a prompt the upstream did not count, so it is not converted (nor this function made) on every call.
 */
function irRequestOf(client: FormatCodec, body: Record<string, unknown>): () => IrRequest {
  let ir: IrRequest | undefined;
  return () => (ir ??= client.requestToIr(body));
}

/** Usage of a streamed answer, its prompt estimated (when the upstream reports none) from `irRequest`. */
function streamUsage(irRequest: () => IrRequest, body: Record<string, unknown>): StreamUsage {
  return new StreamUsage(() => promptEstimate(irRequest, body));
}

/** Through the IR both ways: a provider of another format, or one that works on the IR itself. */
async function translated(
  args: ExecuteChatArgs,
  provider: ChatProvider,
  body: Record<string, unknown>,
  client: FormatCodec,
  context: CallContext,
  secrets: readonly string[],
): Promise<ProviderAnswer> {
  const { format, deployment, signal } = args;
  const irRequest = irRequestOf(client, body);
  const request = withOutputCap(irRequest(), args.outputCap);
  const stream = request.stream;
  const usage = streamUsage(irRequest, body);
  const encode = {
    id: '',
    model: deployment.model,
    usage: () => usage.current(),
    includeUsage: includesUsage(format, body),
  };
  const streamOptions = { codec: client, usage, signal, provider: provider.name, secrets, report: context.report };
  if (provider.kind === 'ir') {
    if (!stream) return answer(client, await provider.generate(request, context), deployment.model, request);
    const events = await provider.stream(request, context);
    return startStream(client.encodeStream(asShown(tapUsage(events, usage), request), encode), streamOptions);
  }
  const upstream = codecFor(provider.format);
  const native = upstream.requestFromIr(request, context.upstreamModel);
  provider.adaptTranslated?.(native, context, request);
  const result = await provider.send(native, context);
  if (result.kind === 'json')
    return answer(client, upstream.responseToIr(result.body, request), deployment.model, request);
  const events = tapUsage(upstream.decodeStream(result.events, request), usage);
  return startStream(client.encodeStream(asShown(events, request), encode), streamOptions);
}

/** An answer without the model's reasoning, for a client that did not ask to see it. */
function withoutReasoning(response: IrResponse): IrResponse {
  if (response.reasoning === undefined) return response;
  const { reasoning: _reasoning, ...rest } = response;
  return rest;
}

/** A stream as the client shows it: without reasoning events unless asked (counted in usage before). */
function asShown(events: AsyncIterable<IrStreamEvent>, request: IrRequest): AsyncIterable<IrStreamEvent> {
  return request.showsReasoning === false ? reasoningLeftOut(events) : events;
}

async function* reasoningLeftOut(events: AsyncIterable<IrStreamEvent>): AsyncGenerator<IrStreamEvent> {
  for await (const event of events) if (event.type !== 'reasoning') yield event;
}

async function fastPath(
  provider: NativeChatProvider,
  body: Record<string, unknown>,
  codec: FormatCodec,
  context: CallContext,
  secrets: readonly string[],
): Promise<ProviderAnswer> {
  const publicModel = context.deployment.model;
  const native: Record<string, unknown> = { ...body, model: context.upstreamModel };
  const includeUsage = includesUsage(provider.format, body);
  if (body.stream === true && provider.format === 'chat') {
    // Always ask for usage so accounting is exact; the relay drops the chunk if the client did not ask.
    native.stream_options = { ...(body.stream_options as object | null | undefined), include_usage: true };
  }
  provider.adaptNative?.(native, context);
  const result = await provider.send(native, context);
  if (result.kind === 'sse') {
    const usage = streamUsage(irRequestOf(codec, body), body);
    return startStream(codec.relayStream(result.events, { publicModel, usage, includeUsage }), {
      codec,
      usage,
      signal: context.signal,
      provider: provider.name,
      secrets,
      report: context.report,
    });
  }
  const upstreamModel = (result.body as { model?: unknown } | null)?.model;
  const relayed = codec.relayJson(result.body, publicModel);
  const reported = relayed.usage;
  if (reported?.promptTokens === undefined || reported.completionTokens === undefined) {
    const estimated = completeUsage(reported, () =>
      estimateAnswer(codec.responseToIr(relayed.body), () => promptEstimate(irRequestOf(codec, body), body)),
    );
    codec.setUsage(relayed.body, estimated);
    return { kind: 'json', body: relayed.body, usage: estimated };
  }
  // Both counts reported: nothing is estimated, and no estimate is built for every answer.
  const final = completeUsage(reported, reportedInFull);
  const text = result.text === undefined ? undefined : withModel(result.text, upstreamModel, publicModel);
  // Two literals rather than a spread: this is every non-streamed chat answer's path.
  return text === undefined
    ? { kind: 'json', body: relayed.body, usage: final }
    : { kind: 'json', body: relayed.body, usage: final, text };
}

const MODEL_FIELD = /"model"\s*:\s*("(?:[^"\\]|\\.)*")/;

/**
 * The upstream's JSON text with its `model` value replaced, or undefined when the first `model`
 * field is not the top-level one we parsed (then the caller serialises the object instead).
 */
function withModel(text: string, upstreamModel: unknown, publicModel: string): string | undefined {
  const field = MODEL_FIELD.exec(text);
  if (field === null || typeof upstreamModel !== 'string' || JSON.parse(field[1]!) !== upstreamModel) return undefined;
  return `${text.slice(0, field.index)}"model":${JSON.stringify(publicModel)}${text.slice(field.index + field[0].length)}`;
}

function answer(codec: FormatCodec, response: IrResponse, publicModel: string, request: IrRequest): JsonAnswer {
  const usage = completeUsage(response.usage, () => estimateAnswer(response, () => estimatePromptTokens(request)));
  const shown = request.showsReasoning === false ? withoutReasoning(response) : response;
  return { kind: 'json', body: codec.responseFromIr(shown, publicModel, usage), usage };
}

function estimateAnswer(response: IrResponse, prompt: () => number): Usage {
  const chars = response.content.reduce(
    (sum, part) => sum + (part.type === 'text' ? part.text.length : part.name.length + part.arguments.length),
    // Reasoning written out is output the provider bills too.
    response.reasoning?.length ?? 0,
  );
  return { promptTokens: prompt(), completionTokens: tokensForChars(chars) };
}

function reportedInFull(): Usage {
  throw new Error('usage estimated although the upstream reported both counts');
}

/** Prompt estimate for upstreams that report no usage; a request the IR cannot hold is sized raw. */
function promptEstimate(irRequest: () => IrRequest, body: Record<string, unknown>): number {
  try {
    return estimatePromptTokens(irRequest());
  } catch {
    return estimateTokens(JSON.stringify(body.messages ?? ''));
  }
}

function includesUsage(format: ClientFormat, body: Record<string, unknown>): boolean {
  return (
    format === 'chat' && (body.stream_options as { include_usage?: unknown } | null | undefined)?.include_usage === true
  );
}
