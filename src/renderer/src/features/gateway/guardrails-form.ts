import {
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

/** One override row: a model or a key, and what it changes (blank: inherited). */
export interface OverrideDraft {
  readonly scope: 'model' | 'key';
  readonly name: string;
  readonly piiMode: PiiMode | '';
  /** The entity types the PII rule lists, when it lists its own (kept as is: edited through the API). */
  readonly entities?: readonly PiiEntityType[];
  /** `null`: inherit the patterns; otherwise one pattern per line (empty: none). */
  readonly patterns: string | null;
  /** '': inherit; 'none': no limit; otherwise a number. */
  readonly maxTokens: string;
}

/** The screen's draft of both settings documents. */
export interface GuardrailsDraft {
  readonly mode: PiiMode;
  readonly entities: readonly PiiEntityType[];
  /** One pattern per line. */
  readonly patterns: string;
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
        maxTokens: c.max_input_tokens === undefined ? '' : !c.max_input_tokens ? 'none' : String(c.max_input_tokens),
      });
    }
  }
  return {
    mode: pii.mode,
    entities: pii.entities,
    patterns: policy.blocked_patterns.join('\n'),
    maxTokens: !policy.max_input_tokens ? '' : String(policy.max_input_tokens),
    overrides,
  };
}

/** What is wrong with the draft, by field label; empty when it can be saved. */
export function draftProblems(draft: GuardrailsDraft): string[] {
  const problems: string[] = [];
  const checkPatterns = (text: string, where: string): void => {
    for (const pattern of lines(text)) {
      const problem = patternProblem(pattern);
      if (problem !== undefined) problems.push(`${where}: ${pattern} is not a valid regular expression (${problem})`);
    }
  };
  const checkTokens = (text: string, where: string, allowNone: boolean): void => {
    if (text === '' || (allowNone && text === 'none')) return;
    if (!/^[1-9]\d*$/.test(text)) problems.push(`${where}: max input tokens must be a positive whole number`);
  };
  checkPatterns(draft.patterns, 'Blocked patterns');
  checkTokens(draft.maxTokens, 'Content policy', false);
  const seen = new Set<string>();
  for (const row of draft.overrides) {
    const label = `${row.scope} ${row.name || '(unnamed)'}`;
    if (row.name.trim() === '') problems.push(`Override ${label}: choose a ${row.scope}`);
    if (seen.has(`${row.scope}:${row.name}`)) problems.push(`Override ${label}: listed twice`);
    seen.add(`${row.scope}:${row.name}`);
    if (row.patterns !== null) checkPatterns(row.patterns, `Override ${label}`);
    checkTokens(row.maxTokens, `Override ${label}`, true);
  }
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
      max_input_tokens: draft.maxTokens === '' ? null : Number(draft.maxTokens),
      ...policy,
    },
  };
}
