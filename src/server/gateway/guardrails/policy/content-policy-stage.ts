import type { PolicyStage } from '../../pipeline/stages/policy-stages.js';
import type { RequestContext } from '../../pipeline/request-context.js';
import { noteGuardrails, refuse, rulesOf } from '../request-rules.js';
import { requestTokenIds, visitRequestTexts } from '../request-texts.js';
import type { BlockedPattern, CompiledPolicy } from '../rules.js';
import { watchAnswer } from './answer-policy.js';
import { PartRuns, type JoinedParts } from './part-runs.js';
import { firstMatch, quotedPattern } from './pattern-match.js';
import { visitToolDefinitionTexts } from './tool-definition-texts.js';
import { checkTokens } from './token-count.js';

/**
 * The `contentPolicy` slot: refuses a request with 400 content_policy_violation, before any upstream
 * call, when one of its texts matches a blocked pattern or its input is over the token limit. The
 * reason names the pattern and where it matched, never the text that matched. With answer patterns
 * in force, it also sets the request up for the answer check (answer-policy.ts).
 */
export const contentPolicyStage: PolicyStage = (ctx) => {
  const policy = rulesOf(ctx).policy;
  if (policy === undefined) return undefined;
  if (policy.patterns.length > 0 || policy.maxInputTokens !== null) enforce(ctx, policy);
  watchAnswer(ctx, policy);
  return undefined;
};

function enforce(ctx: RequestContext, policy: CompiledPolicy): void {
  const ids = requestTokenIds(ctx.endpoint, ctx.body);
  if (ids !== undefined && policy.patterns.length > 0)
    refuse(ctx, 'content_policy', `${ids.paths[0]} is token ids, which blocked patterns cannot read; send it as text`);
  // Token ids count as they are: one each.
  const limit = policy.maxInputTokens === null ? null : policy.maxInputTokens - (ids?.tokens ?? 0);
  const texts: string[] = [];
  let bytes = 0;
  let violation: string | undefined;
  const runs = policy.patterns.length > 0 ? new PartRuns() : undefined;
  visitRequestTexts(ctx.endpoint, ctx.body, (text, where) => {
    if (violation !== undefined) return;
    violation = matchJoined(policy.patterns, runs?.add(text, where.path)) ?? matchIn(policy.patterns, text, where.path);
    if (violation !== undefined) return;
    if (limit !== null) {
      texts.push(text);
      bytes += Buffer.byteLength(text);
    }
  });
  violation ??= matchJoined(policy.patterns, runs?.close());
  if (violation === undefined && policy.patterns.length > 0)
    visitToolDefinitionTexts(ctx.endpoint, ctx.body, (text, where) => {
      violation ??= matchIn(policy.patterns, text, where.path);
    });
  if (violation === undefined && limit !== null) {
    const check = limit < 0 ? { fits: false } : checkTokens(texts, limit, bytes);
    if (check.tokens !== undefined) noteGuardrails(ctx).input_tokens = check.tokens + (ids?.tokens ?? 0);
    if (!check.fits)
      violation = `the input is over the limit of ${policy.maxInputTokens} tokens (content_policy.max_input_tokens)`;
  }
  if (violation !== undefined) {
    noteGuardrails(ctx).content_policy = 'refused';
    refuse(ctx, 'content_policy', violation);
  }
  noteGuardrails(ctx).content_policy = 'passed';
}

/** The refusal's reason when a pattern matches the text, as written or as a reader takes it. */
function matchIn(patterns: readonly BlockedPattern[], text: string, path: string): string | undefined {
  const pattern = firstMatch(patterns, text);
  return pattern && `blocked pattern ${quotedPattern(pattern)} matched in ${pathWithout(path, text)}`;
}

/**
 * The path of a text for a refusal, which never shows the text itself: an object key (`input.<key>`,
 * in a tool call's arguments) is named as a key of its object, not by its name.
 */
function pathWithout(path: string, text: string): string {
  return path.endsWith(`.${text}`) ? `a key of ${path.slice(0, -text.length - 1)}` : path;
}

/** The refusal's reason when a pattern matches a content list's parts read together. */
function matchJoined(patterns: readonly BlockedPattern[], parts: JoinedParts | undefined): string | undefined {
  if (parts === undefined) return undefined;
  for (const joined of parts.joined) {
    const reason = matchIn(patterns, joined, parts.list);
    if (reason !== undefined) return reason;
  }
  return undefined;
}
