import {
  MAX_PATTERN_CHARS,
  MAX_PATTERNS,
  patternProblem,
  type ContentPolicyRule,
  type ContentPolicySettings,
  type ContentPolicySettingsUpdate,
  type PiiEntityType,
  type PiiMode,
  type PiiRule,
  type PiiSettings,
  type PiiSettingsUpdate,
} from '../../../../shared/guardrails-api.js';
import type { FieldProblem } from '../../lib/field-problems.js';
import { formatInt } from '../../lib/format.js';

/** One override row: a model or a key, and what it changes (blank: inherited). */
export interface OverrideDraft {
  readonly scope: 'model' | 'key';
  readonly name: string;
  readonly piiMode: PiiMode | '';
  /** The entity types the PII rule lists, when it lists its own (kept as is: edited through the API). */
  readonly entities?: readonly PiiEntityType[];
  /** `null`: inherit the patterns; otherwise one pattern per line (empty: none). */
  readonly patterns: string | null;
  /** The answer patterns, as `patterns`. */
  readonly answerPatterns: string | null;
  /** '': inherit; 'none': no limit; otherwise a number. */
  readonly maxTokens: string;
}

/** The screen's draft of both settings documents. */
export interface GuardrailsDraft {
  readonly mode: PiiMode;
  readonly entities: readonly PiiEntityType[];
  /** One pattern per line. */
  readonly patterns: string;
  /** Patterns read in the answer, one per line. */
  readonly answerPatterns: string;
  /** '': no limit. */
  readonly maxTokens: string;
  readonly overrides: readonly OverrideDraft[];
}

const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** The draft of the settings in force. */
export function draftOf(pii: PiiSettings, policy: ContentPolicySettings): GuardrailsDraft {
  const overrides: OverrideDraft[] = [];
  for (const scope of ['model', 'key'] as const) {
    const piiRules = scope === 'model' ? pii.models : pii.keys;
    const policyRules = scope === 'model' ? policy.models : policy.keys;
    for (const name of [...new Set([...Object.keys(piiRules), ...Object.keys(policyRules)])].sort()) {
      const p: PiiRule = piiRules[name] ?? {};
      const c: ContentPolicyRule = policyRules[name] ?? {};
      overrides.push({
        scope,
        name,
        piiMode: p.mode ?? '',
        ...(p.entities ? { entities: p.entities } : {}),
        patterns: c.blocked_patterns ? c.blocked_patterns.join('\n') : null,
        answerPatterns: c.blocked_answer_patterns ? c.blocked_answer_patterns.join('\n') : null,
        maxTokens: c.max_input_tokens === undefined ? '' : !c.max_input_tokens ? 'none' : String(c.max_input_tokens),
      });
    }
  }
  return {
    mode: pii.mode,
    entities: pii.entities,
    patterns: policy.blocked_patterns.join('\n'),
    answerPatterns: policy.blocked_answer_patterns.join('\n'),
    maxTokens: !policy.max_input_tokens ? '' : String(policy.max_input_tokens),
    overrides,
  };
}

/** The ids of the screen's controls, so a problem can point at (and focus) the one to fix. */
export const GUARDRAILS_FIELD_IDS = {
  patterns: 'blocked-patterns',
  answerPatterns: 'blocked-answer-patterns',
  maxTokens: 'max-input-tokens',
  overrideTarget: (index: number) => `override-${index}-target`,
  overridePatterns: (index: number) => `override-${index}-patterns`,
  overrideAnswerPatterns: (index: number) => `override-${index}-answer-patterns`,
  overrideMaxTokens: (index: number) => `override-${index}-max-tokens`,
} as const;

/** What is wrong with the draft, each with the control to fix it in; empty when it can be saved. */
export function draftProblems(draft: GuardrailsDraft): readonly FieldProblem[] {
  const problems: FieldProblem[] = [];
  const checkPatterns = (text: string, where: string, fieldId: string): void => {
    const patterns = lines(text);
    // The shared schema's bounds, checked here so the gateway's refusal is never the first word.
    if (patterns.length > MAX_PATTERNS)
      problems.push({
        fieldId,
        message: `${where}: at most ${formatInt(MAX_PATTERNS)} patterns, got ${formatInt(patterns.length)}`,
      });
    for (const pattern of patterns) {
      if (pattern.length > MAX_PATTERN_CHARS) {
        problems.push({
          fieldId,
          message: `${where}: a pattern is ${formatInt(pattern.length)} characters long, more than the ${formatInt(MAX_PATTERN_CHARS)} allowed ("${pattern.slice(0, 24)}…")`,
        });
        continue;
      }
      const problem = patternProblem(pattern);
      if (problem !== undefined) problems.push({ fieldId, message: `${where}: "${pattern}" ${problem}` });
    }
  };
  const checkTokens = (text: string, where: string, fieldId: string, allowNone: boolean): void => {
    if (text === '' || (allowNone && text === 'none')) return;
    if (!/^[1-9]\d*$/.test(text))
      problems.push({
        fieldId,
        message: `${where}: max input tokens must be a positive whole number${allowNone ? ', "none" or empty' : ' or empty'}`,
      });
  };
  checkPatterns(draft.patterns, 'Blocked patterns', GUARDRAILS_FIELD_IDS.patterns);
  checkPatterns(draft.answerPatterns, 'Blocked answer patterns', GUARDRAILS_FIELD_IDS.answerPatterns);
  checkTokens(draft.maxTokens, 'Content policy', GUARDRAILS_FIELD_IDS.maxTokens, false);
  const seen = new Set<string>();
  draft.overrides.forEach((row, index) => {
    const label = `${row.scope} ${row.name || '(unnamed)'}`;
    const target = GUARDRAILS_FIELD_IDS.overrideTarget(index);
    if (row.name.trim() === '')
      problems.push({ fieldId: target, message: `Override ${index + 1}: choose a ${row.scope}` });
    // Saved, it would be no rule at all: the row would vanish with nothing said.
    else if (
      row.piiMode === '' &&
      !row.entities &&
      row.patterns === null &&
      row.answerPatterns === null &&
      row.maxTokens === ''
    )
      problems.push({
        fieldId: target,
        message: `Override ${label}: sets nothing (every setting inherits); change one, or remove the override`,
      });
    if (seen.has(`${row.scope}:${row.name}`))
      problems.push({ fieldId: target, message: `Override ${label}: listed twice` });
    seen.add(`${row.scope}:${row.name}`);
    if (row.patterns !== null)
      checkPatterns(row.patterns, `Override ${label}`, GUARDRAILS_FIELD_IDS.overridePatterns(index));
    if (row.answerPatterns !== null)
      checkPatterns(
        row.answerPatterns,
        `Override ${label} answer patterns`,
        GUARDRAILS_FIELD_IDS.overrideAnswerPatterns(index),
      );
    checkTokens(row.maxTokens, `Override ${label}`, GUARDRAILS_FIELD_IDS.overrideMaxTokens(index), true);
  });
  return problems;
}

/** The two admin updates that make the draft the settings in force. */
export function updatesOf(draft: GuardrailsDraft): { pii: PiiSettingsUpdate; policy: ContentPolicySettingsUpdate } {
  const pii: Required<Pick<PiiSettingsUpdate, 'models' | 'keys'>> = { models: {}, keys: {} };
  const policy: Required<Pick<ContentPolicySettingsUpdate, 'models' | 'keys'>> = { models: {}, keys: {} };
  for (const row of draft.overrides) {
    const target = row.scope === 'model' ? 'models' : 'keys';
    const piiRule: PiiRule = {
      ...(row.piiMode !== '' ? { mode: row.piiMode } : {}),
      ...(row.entities ? { entities: [...row.entities] } : {}),
    };
    const policyRule: ContentPolicyRule = {
      ...(row.patterns !== null ? { blocked_patterns: lines(row.patterns) } : {}),
      ...(row.answerPatterns !== null ? { blocked_answer_patterns: lines(row.answerPatterns) } : {}),
      ...(row.maxTokens === 'none'
        ? { max_input_tokens: null }
        : row.maxTokens !== ''
          ? { max_input_tokens: Number(row.maxTokens) }
          : {}),
    };
    if (Object.keys(piiRule).length > 0) pii[target][row.name] = piiRule;
    if (Object.keys(policyRule).length > 0) policy[target][row.name] = policyRule;
  }
  return {
    pii: { mode: draft.mode, entities: [...draft.entities], ...pii },
    policy: {
      blocked_patterns: lines(draft.patterns),
      blocked_answer_patterns: lines(draft.answerPatterns),
      max_input_tokens: draft.maxTokens === '' ? null : Number(draft.maxTokens),
      ...policy,
    },
  };
}
