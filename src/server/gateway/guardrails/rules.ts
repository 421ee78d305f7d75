import type {
  ContentPolicyRule,
  ContentPolicySettings,
  PiiEntityType,
  PiiRule,
  PiiSettings,
} from '../../../shared/guardrails-api.js';
import { detectorsFor, type Detector } from './pii/detectors.js';

/** The PII rule in force for one request, compiled (absent when the mode is `off` or no type is chosen). */
export interface CompiledPii {
  readonly mode: 'mask' | 'redact' | 'block';
  readonly detectors: readonly Detector[];
}

/** One blocked pattern: its source (for the refusal's reason) and its case-insensitive expression. */
export interface BlockedPattern {
  readonly source: string;
  readonly regex: RegExp;
}

/** The content policy in force for one request, compiled (absent when it has no pattern and no limit). */
export interface CompiledPolicy {
  readonly patterns: readonly BlockedPattern[];
  /** Patterns read in the answer (`blocked_answer_patterns`), compiled as the request's are. */
  readonly answerPatterns: readonly BlockedPattern[];
  readonly maxInputTokens: number | null;
}

/** What applies to one request. */
export interface RequestRules {
  readonly pii: CompiledPii | undefined;
  readonly policy: CompiledPolicy | undefined;
}

/** The gateway's rules merged with a model's and a key's overrides: field by field, the most specific wins. */
export function mergePii(base: PiiSettings, ...overrides: Array<PiiRule | undefined>): PiiRule {
  let merged: PiiRule = { mode: base.mode, entities: base.entities };
  for (const override of overrides) if (override !== undefined) merged = { ...merged, ...defined(override) };
  return merged;
}

/** As {@link mergePii}, for the content policy (`max_input_tokens: null` in an override lifts the limit). */
export function mergePolicy(
  base: ContentPolicySettings,
  ...overrides: Array<ContentPolicyRule | undefined>
): ContentPolicyRule {
  let merged: ContentPolicyRule = {
    blocked_patterns: base.blocked_patterns,
    blocked_answer_patterns: base.blocked_answer_patterns,
    max_input_tokens: base.max_input_tokens,
  };
  for (const override of overrides) if (override !== undefined) merged = { ...merged, ...defined(override) };
  return merged;
}

function defined<T extends object>(rule: T): Partial<T> {
  return Object.fromEntries(Object.entries(rule).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** Compiles a merged PII rule: its detectors, chosen once. */
export function compilePii(rule: PiiRule): CompiledPii | undefined {
  if (rule.mode === undefined || rule.mode === 'off') return undefined;
  const detectors = detectorsFor(new Set<PiiEntityType>(rule.entities ?? []));
  return detectors.length === 0 ? undefined : { mode: rule.mode, detectors };
}

/**
 * Compiles a merged content policy. Each pattern is compiled here, once per settings change, and shared
 * by every request it applies to; the same source compiles once however many scopes list it.
 */
export function compilePolicy(rule: ContentPolicyRule, compiled: Map<string, RegExp>): CompiledPolicy | undefined {
  const sources = rule.blocked_patterns ?? [];
  const answerSources = rule.blocked_answer_patterns ?? [];
  // 0 and null both mean no limit.
  const maxInputTokens = rule.max_input_tokens || null;
  if (sources.length === 0 && answerSources.length === 0 && maxInputTokens === null) return undefined;
  const patternOf = (source: string): BlockedPattern => {
    let regex = compiled.get(source);
    if (regex === undefined) {
      // Not global: `test` keeps no state between texts or requests.
      regex = new RegExp(source, 'i');
      compiled.set(source, regex);
    }
    return { source, regex };
  };
  return { patterns: sources.map(patternOf), answerPatterns: answerSources.map(patternOf), maxInputTokens };
}
