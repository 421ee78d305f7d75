import type { PiiEntityType } from '../../../../shared/guardrails-api.js';
import type { RequestContext } from '../../pipeline/request-context.js';
import type { OutputStage, PolicyStage } from '../../pipeline/stages/policy-stages.js';
import { noteGuardrails, refuse, rulesOf } from '../request-rules.js';
import { requestTokenIds, visitRequestTexts } from '../request-texts.js';
import type { CompiledPii } from '../rules.js';
import { findEntities, type Found } from './detectors.js';
import { splitEntities, type Piece } from './split-entities.js';
import { collectPlaceholders, PiiScrubber } from './pii-scrubber.js';
import { PiiRestorer } from './restorer.js';
import { StreamRestore, type StreamFormat } from './stream-restore.js';

/** What the output stage needs of a request whose answer gets originals back. */
export interface PiiRequestState {
  readonly restorer: PiiRestorer;
  readonly format: StreamFormat;
  stream?: StreamRestore;
}

/**
 * The `piiScrub` slot: finds entities in every text of the request and, by the rule in force,
 * replaces them with placeholders (mask, redact) or refuses the request (block). Two passes, the
 * second only when something was found: placeholders the request already holds as text are known
 * before any is handed out.
 */
export const piiScrubStage: PolicyStage = (ctx) => {
  const rule = rulesOf(ctx).pii;
  if (rule !== undefined) scrub(ctx, rule);
  return undefined;
};

function scrub(ctx: RequestContext, rule: CompiledPii): void {
  const ids = requestTokenIds(ctx.endpoint, ctx.body);
  if (ids !== undefined)
    refuse(
      ctx,
      'pii',
      `${ids.paths[0]} is token ids, which PII detection cannot read (pii.mode is ${rule.mode}); send it as text`,
    );
  const found: Found[][] = [];
  const texts: string[] = [];
  const paths: string[] = [];
  const reserved = new Set<string>();
  visitRequestTexts(ctx.endpoint, ctx.body, (text, where) => {
    found.push(findEntities(text, rule.detectors));
    texts.push(text);
    paths.push(where.path);
    collectPlaceholders(text, reserved);
  });
  const split = splitEntities(texts, paths, found, rule.detectors);
  const pieces: Piece[][] = found.map((entities, index) => split.get(index) ?? entities);
  const outcome = noteGuardrails(ctx);
  outcome.pii_mode = rule.mode;
  const counts: Partial<Record<PiiEntityType, number>> = {};
  let total = 0;
  for (const entities of pieces)
    for (const entity of entities)
      if (!entity.drop) {
        counts[entity.type] = (counts[entity.type] ?? 0) + 1;
        total += 1;
      }
  if (total === 0) return;
  outcome.pii_entities = counts;
  for (const [type, count] of Object.entries(counts)) ctx.services.metrics.piiEntities.labels(type).inc(count);
  if (rule.mode === 'block') refuse(ctx, 'pii', `the request contains ${describe(counts)} (pii.mode is block)`);
  const scrubber = new PiiScrubber(rule.mode === 'mask', reserved);
  let index = 0;
  visitRequestTexts(ctx.endpoint, ctx.body, (text, where) => {
    const entities = pieces[index++]!;
    const json = where.kind === 'tool_arguments' || where.kind === 'tool_result';
    return entities.length === 0 ? undefined : scrubber.scrub(text, entities, json);
  });
  ctx.bodyRewritten = true;
  const format = streamFormat(ctx);
  if (scrubber.originals.size > 0 && format !== undefined)
    ctx.pii = { restorer: new PiiRestorer(scrubber.originals), format };
}

/** `2 email, 1 credit_card`: counts by type, never a value. */
function describe(counts: Partial<Record<PiiEntityType, number>>): string {
  return Object.entries(counts)
    .map(([type, count]) => `${count} ${type}`)
    .join(', ');
}

/** The answer format of the endpoints whose answers carry text (embeddings and counts carry none). */
function streamFormat(ctx: RequestContext): StreamFormat | undefined {
  switch (ctx.endpoint) {
    case 'chat':
    case 'messages':
    case 'responses':
      return ctx.endpoint;
    default:
      return undefined;
  }
}

/**
 * The `piiRestore` output slot: originals back in the answer (mask mode), whole JSON answers and
 * stream frames alike. Requests that need nothing restored never reach it.
 */
export const piiRestoreStage: OutputStage = {
  applies: (ctx) => ctx.pii !== undefined,
  text: (ctx, json) => ctx.pii!.restorer.json(json),
  frame: (ctx, frame) => {
    const state = ctx.pii!;
    state.stream ??= new StreamRestore(state.format, state.restorer);
    return state.stream.frame(frame);
  },
};
