import { describe, expect, it } from 'vitest';
import { contentPolicySettingsUpdateSchema, MAX_PATTERN_CHARS, MAX_PATTERNS } from '../../src/shared/guardrails-api.js';
import {
  draftProblems,
  GUARDRAILS_FIELD_IDS,
  updatesOf,
  type GuardrailsDraft,
} from '../../src/renderer/src/features/gateway/guardrails-form.js';

const base: GuardrailsDraft = {
  mode: 'off',
  entities: [],
  patterns: '',
  answerPatterns: '',
  maxTokens: '',
  overrides: [],
};

describe('PII & policy form: the shared schema bounds on patterns', () => {
  it('refuses, on the patterns field, what the gateway would refuse: a pattern too long, too many patterns', () => {
    const cases = [
      { patterns: 'a'.repeat(MAX_PATTERN_CHARS + 1), says: `more than the 1,000 allowed` },
      {
        patterns: Array.from({ length: MAX_PATTERNS + 1 }, (_, i) => `p${i}`).join('\n'),
        says: 'at most 500 patterns',
      },
    ];
    for (const { patterns, says } of cases) {
      const draft = { ...base, patterns };
      expect(contentPolicySettingsUpdateSchema.safeParse(updatesOf(draft).policy).success).toBe(false);
      const problems = draftProblems(draft);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatchObject({ fieldId: GUARDRAILS_FIELD_IDS.patterns });
      expect(problems[0]!.message).toContain(says);
    }
  });

  it('accepts what the gateway accepts at the bounds themselves', () => {
    const draft = {
      ...base,
      patterns: ['a'.repeat(MAX_PATTERN_CHARS), ...Array.from({ length: MAX_PATTERNS - 1 }, (_, i) => `p${i}`)].join(
        '\n',
      ),
    };
    expect(contentPolicySettingsUpdateSchema.safeParse(updatesOf(draft).policy).success).toBe(true);
    expect(draftProblems(draft)).toEqual([]);
  });

  it('names an override’s patterns field for its own bound', () => {
    const draft: GuardrailsDraft = {
      ...base,
      overrides: [
        {
          scope: 'model',
          name: 'demo/echo',
          piiMode: '',
          patterns: 'b'.repeat(MAX_PATTERN_CHARS + 1),
          answerPatterns: null,
          maxTokens: '',
        },
      ],
    };
    expect(draftProblems(draft).map((problem) => problem.fieldId)).toEqual([GUARDRAILS_FIELD_IDS.overridePatterns(0)]);
  });

  it('checks answer patterns on their own field, and sends them in the update', () => {
    const draft: GuardrailsDraft = { ...base, answerPatterns: 'ok\n(unclosed' };
    expect(draftProblems(draft)).toEqual([
      expect.objectContaining({
        fieldId: GUARDRAILS_FIELD_IDS.answerPatterns,
        message: expect.stringContaining('"(unclosed" is not a valid regular expression'),
      }),
    ]);
    const override: GuardrailsDraft = {
      ...base,
      answerPatterns: 'launch\\s+codes',
      overrides: [{ scope: 'key', name: 'key_1', piiMode: '', patterns: null, answerPatterns: '', maxTokens: '' }],
    };
    expect(updatesOf(override).policy).toMatchObject({
      blocked_answer_patterns: ['launch\\s+codes'],
      keys: { key_1: { blocked_answer_patterns: [] } },
    });
  });
});

describe('PII & policy form: an override that sets nothing', () => {
  it('is a problem on its row rather than a row that vanishes when saved', () => {
    const empty = {
      scope: 'model',
      name: 'gpt-4o-mini',
      piiMode: '',
      patterns: null,
      answerPatterns: null,
      maxTokens: '',
    } as const;
    const draft = { ...base, overrides: [empty] };
    // Saved as it is, the gateway would keep no rule for it.
    expect(updatesOf(draft).pii.models).toEqual({});
    expect(updatesOf(draft).policy.models).toEqual({});
    expect(draftProblems(draft)).toEqual([
      {
        fieldId: GUARDRAILS_FIELD_IDS.overrideTarget(0),
        message:
          'Override model gpt-4o-mini: sets nothing (every setting inherits); change one, or remove the override',
      },
    ]);
    expect(draftProblems({ ...base, overrides: [{ ...empty, maxTokens: 'none' }] })).toEqual([]);
    expect(draftProblems({ ...base, overrides: [{ ...empty, piiMode: 'mask' }] })).toEqual([]);
    expect(draftProblems({ ...base, overrides: [{ ...empty, patterns: '' }] })).toEqual([]);
    expect(draftProblems({ ...base, overrides: [{ ...empty, answerPatterns: '' }] })).toEqual([]);
  });
});
