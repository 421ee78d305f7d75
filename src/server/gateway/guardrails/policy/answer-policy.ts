import type { ProviderAnswer } from '../../providers/answer.js';
import type { RequestContext } from '../../pipeline/request-context.js';
import type { StreamFormat } from '../pii/stream-restore.js';
import { noteGuardrails } from '../request-rules.js';
import type { BlockedPattern, CompiledPolicy } from '../rules.js';
import { answerTexts, withheldAnswer } from './answer-texts.js';
import { AnswerStreamCheck } from './answer-stream-check.js';
import { firstMatch, quotedPattern } from './pattern-match.js';

/** What the answer check needs of a request whose answer the content policy reads. */
export interface AnswerPolicyState {
  readonly patterns: readonly BlockedPattern[];
  readonly format: StreamFormat;
  stream?: AnswerStreamCheck;
}

/** Sets the request up for the answer check when answer patterns apply and its endpoint answers text. */
export function watchAnswer(ctx: RequestContext, policy: CompiledPolicy): void {
  if (policy.answerPatterns.length === 0) return;
  if (ctx.endpoint === 'chat' || ctx.endpoint === 'messages' || ctx.endpoint === 'responses')
    ctx.answerPolicy = { patterns: policy.answerPatterns, format: ctx.endpoint };
}

/**
 * A whole answer checked as the client would get it (PII originals restored): where a text matches,
 * the answer with that text withheld and the format's content-filter ending (see withheldAnswer);
 * else the answer itself. Streams are checked as they are relayed ({@link answerStreamFrame}).
 */
export function screenAnswer(ctx: RequestContext, answer: ProviderAnswer): ProviderAnswer {
  const state = ctx.answerPolicy;
  if (state === undefined || answer.kind !== 'json') return answer;
  const restorer = ctx.pii?.restorer;
  const body = (restorer === undefined ? answer.body : restorer.value(answer.body)) as Record<string, unknown>;
  const stopped = new Set<number>();
  for (const { text, path, choice } of answerTexts(state.format, body)) {
    if (stopped.has(choice)) continue;
    const pattern = firstMatch(state.patterns, text);
    if (pattern === undefined) continue;
    if (stopped.size === 0) noteAnswerStopped(ctx, pattern, path);
    stopped.add(choice);
  }
  if (stopped.size === 0) return answer;
  return {
    kind: 'json',
    body: withheldAnswer(state.format, answer.body as Record<string, unknown>, stopped),
    usage: answer.usage,
  };
}

/**
 * One stream frame as the client gets it (after PII restoration), checked: the frame itself, or what
 * precedes the event that completed a match followed by the format's content-filter ending.
 * {@link answerStreamStopped} then says the relay must end.
 */
export function answerStreamFrame(ctx: RequestContext, frame: string): string {
  const state = ctx.answerPolicy!;
  const answer = ctx.answer;
  state.stream ??= new AnswerStreamCheck(
    state.format,
    state.patterns,
    () => (answer?.kind === 'stream' ? answer.usage() : { promptTokens: 0, completionTokens: 0 }),
    includesUsage(ctx),
  );
  const sent = state.stream.frame(frame);
  const stop = state.stream.stop;
  if (stop !== undefined && noteGuardrails(ctx).answer_stopped === undefined)
    noteAnswerStopped(ctx, stop.pattern, stop.where);
  return sent;
}

/** The frames the stream check wrote in place of the stopped event, once it stopped; else undefined. */
export function answerStreamStopped(ctx: RequestContext): string | undefined {
  const check = ctx.answerPolicy?.stream;
  return check?.stop === undefined ? undefined : check.ending;
}

/**
 * A Response about to be kept (`store: true`), checked as its answer was: withheld as the client got
 * it when a text matches, so that reading it back (`GET /v1/responses/{id}`) shows no more than the
 * answer did. `response` is as the client gets it (PII originals restored).
 */
export function screenKeptResponse(ctx: RequestContext, response: Record<string, unknown>): Record<string, unknown> {
  const state = ctx.answerPolicy;
  if (state === undefined) return response;
  const matched = answerTexts('responses', response).some(({ text }) => firstMatch(state.patterns, text) !== undefined);
  return matched || state.stream?.stop !== undefined ? withheldAnswer('responses', response, new Set()) : response;
}

/** Chat clients get the usage chunk only when they asked for it. */
function includesUsage(ctx: RequestContext): boolean {
  const options = ctx.body.stream_options as { include_usage?: unknown } | undefined;
  return ctx.endpoint === 'chat' && options?.include_usage === true;
}

/** Shows the stop in the traffic record and the metrics: the pattern and where, never the text. */
function noteAnswerStopped(ctx: RequestContext, pattern: BlockedPattern, where: string): void {
  noteGuardrails(ctx).answer_stopped = {
    pattern: pattern.source,
    reason: `blocked answer pattern ${quotedPattern(pattern)} matched in ${where}`,
  };
  ctx.services.metrics.contentPolicyAnswerStops.inc();
  ctx.trace?.answerStopped(pattern.source);
}
