import { z } from 'zod';
import { slowShapeOf } from './regex-safety.js';

/**
 * Schemas of the PII and content-policy settings (`pii:` and `content_policy:` in the configuration
 * file, `/internal/pii` and `/internal/content-policy` in the admin API), shared by the server and the
 * UI. Pure zod: no Node imports.
 */

/** Kinds of personal data and secrets the PII stage detects. */
export const PII_ENTITY_TYPES = [
  'email',
  'phone',
  'credit_card',
  'iban',
  'ip_address',
  'national_id',
  'secret',
] as const;
/** One entity type (also the `entity_type` label of `gateway_pii_entities_total`). */
export type PiiEntityType = (typeof PII_ENTITY_TYPES)[number];

/**
 * What the PII stage does with what it finds: `off`; `mask` (placeholders upstream, originals restored
 * in the answer, secrets excepted); `redact` (placeholders, never restored); `block` (400).
 */
export const PII_MODES = ['off', 'mask', 'redact', 'block'] as const;
/** One PII mode. */
export type PiiMode = (typeof PII_MODES)[number];

const entityList = z.array(z.enum(PII_ENTITY_TYPES)).refine((list) => new Set(list).size === list.length, {
  message: 'lists an entity type twice',
});

/** PII settings of one scope (the gateway, a model, a key); an override leaves out what it inherits. */
export const piiRuleSchema = z
  .object({
    mode: z.enum(PII_MODES).optional(),
    entities: entityList.optional(),
  })
  .strict();
/** PII settings of one scope. */
export type PiiRule = z.infer<typeof piiRuleSchema>;

/** Longest blocked pattern accepted (characters). */
export const MAX_PATTERN_CHARS = 1000;
/** Most blocked patterns in one scope. */
export const MAX_PATTERNS = 500;

/**
 * Why a blocked pattern cannot be used: it does not compile (case-insensitive, as matched), or it
 * could take exponential time on a prompt; undefined when it is fine.
 */
export function patternProblem(source: string): string | undefined {
  try {
    new RegExp(source, 'i');
  } catch (error) {
    // The engine's own words, without its "Invalid regular expression: /…/i: " preamble, which would
    // only repeat the pattern and what the sentence already says.
    const reason = (error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
    return `is not a valid regular expression: ${reason}`;
  }
  switch (slowShapeOf(source)) {
    case 'nested':
      return 'repeats a part that itself varies in length (as in (a+)+ or (\\w+\\s?)*), which can take exponential time on a prompt that almost matches and hold the gateway: repeat a fixed text, or make the repetition the outer one alone (a+ rather than (a+)+)';
    case 'choice':
      return 'repeats a choice whose alternatives can match the same character (as in (a|a)+ or (.|\\s)*), which can take exponential time on a prompt that almost matches and hold the gateway: use one character class ([\\s\\S]) or alternatives that begin differently';
    case 'run':
      return 'repeats characters without a bound where a match can start at many places of one run of them, before something that can fail (as in \\s+$, .*password or \\d+ dollars), which takes time growing with the square of a long run in a prompt and can hold the gateway: bound the repetition (\\s{1,100}$), drop a leading .*, or anchor it (^, \\b)';
    default:
      return undefined;
  }
}

const pattern = z
  .string()
  .min(1)
  .max(MAX_PATTERN_CHARS)
  .superRefine((source, ctx) => {
    const problem = patternProblem(source);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });

/** An input token limit; `0` or `null` is none (a configuration file drops nulls, so an override lifts a limit with 0). */
const tokenLimit = z.number().int().nonnegative().nullable();

/** Content-policy settings of one scope. `max_input_tokens: 0` (or null) lifts an inherited limit. */
export const contentPolicyRuleSchema = z
  .object({
    blocked_patterns: z.array(pattern).max(MAX_PATTERNS).optional(),
    blocked_answer_patterns: z.array(pattern).max(MAX_PATTERNS).optional(),
    max_input_tokens: tokenLimit.optional(),
  })
  .strict();
/** Content-policy settings of one scope. */
export type ContentPolicyRule = z.infer<typeof contentPolicyRuleSchema>;

/** Overrides by canonical model name and by API key id (most specific wins, field by field: key, model, gateway). */
function withOverrides<T extends z.ZodType>(rule: T) {
  return {
    models: z.record(z.string().min(1).max(200), rule).default({}),
    keys: z.record(z.string().min(1).max(200), rule).default({}),
  };
}

/** The `pii` settings document: the gateway's rule plus per-model and per-key overrides. */
export const piiSettingsSchema = z
  .object({
    mode: z.enum(PII_MODES).default('off'),
    entities: entityList.default([...PII_ENTITY_TYPES]),
    ...withOverrides(piiRuleSchema),
  })
  .strict();
/** PII settings. */
export type PiiSettings = z.infer<typeof piiSettingsSchema>;

/** The `content_policy` settings document. */
export const contentPolicySettingsSchema = z
  .object({
    blocked_patterns: z.array(pattern).max(MAX_PATTERNS).default([]),
    /** Patterns read in what the model answers: a match stops the answer as the provider's content filter would. */
    blocked_answer_patterns: z.array(pattern).max(MAX_PATTERNS).default([]),
    max_input_tokens: tokenLimit.default(null),
    ...withOverrides(contentPolicyRuleSchema),
  })
  .strict();
/** Content-policy settings. */
export type ContentPolicySettings = z.infer<typeof contentPolicySettingsSchema>;

const source = { source: z.enum(['config', 'database']), updated_at: z.string().nullable() };

/** `GET /internal/pii` answer: the settings in force and where they come from. */
export const piiSettingsViewSchema = piiSettingsSchema.extend(source);
/** PII settings as the admin API shows them. */
export type PiiSettingsView = z.infer<typeof piiSettingsViewSchema>;

/**
 * A scope's rule as stored and shown: patterns as strings, not checked again. One an older version
 * accepted (since refused as too slow) must still be shown, so it can be seen and replaced.
 */
const storedContentPolicyRuleSchema = z.object({
  blocked_patterns: z.array(z.string()).optional(),
  blocked_answer_patterns: z.array(z.string()).optional(),
  max_input_tokens: tokenLimit.optional(),
});

/** `GET /internal/content-policy` answer. */
export const contentPolicySettingsViewSchema = z.object({
  blocked_patterns: z.array(z.string()),
  blocked_answer_patterns: z.array(z.string()),
  max_input_tokens: tokenLimit,
  models: z.record(z.string(), storedContentPolicyRuleSchema),
  keys: z.record(z.string(), storedContentPolicyRuleSchema),
  ...source,
});
/** Content-policy settings as the admin API shows them. */
export type ContentPolicySettingsView = z.infer<typeof contentPolicySettingsViewSchema>;

/** `PUT /internal/pii` body: omitted fields keep their value; `reset: true` returns to the configuration file. */
export const piiSettingsUpdateSchema = z
  .object({
    mode: z.enum(PII_MODES).optional(),
    entities: entityList.optional(),
    models: z.record(z.string().min(1).max(200), piiRuleSchema).optional(),
    keys: z.record(z.string().min(1).max(200), piiRuleSchema).optional(),
    reset: z.boolean().optional(),
  })
  .strict();
/** Body of a PII settings update. */
export type PiiSettingsUpdate = z.infer<typeof piiSettingsUpdateSchema>;

/** `PUT /internal/content-policy` body, as for PII. */
export const contentPolicySettingsUpdateSchema = z
  .object({
    blocked_patterns: z.array(pattern).max(MAX_PATTERNS).optional(),
    blocked_answer_patterns: z.array(pattern).max(MAX_PATTERNS).optional(),
    max_input_tokens: tokenLimit.optional(),
    models: z.record(z.string().min(1).max(200), contentPolicyRuleSchema).optional(),
    keys: z.record(z.string().min(1).max(200), contentPolicyRuleSchema).optional(),
    reset: z.boolean().optional(),
  })
  .strict();
/** Body of a content-policy settings update. */
export type ContentPolicySettingsUpdate = z.infer<typeof contentPolicySettingsUpdateSchema>;

/**
 * What the PII and content-policy stages did to one request, for the traffic view: counts by entity
 * type and the reason of a refusal, never a value that was found.
 */
export const guardrailsOutcomeSchema = z.object({
  /** The PII mode applied (absent: the stage was off for this request). */
  pii_mode: z.enum(['mask', 'redact', 'block']).optional(),
  /** Entities found, by type. */
  pii_entities: z.record(z.string(), z.number()).optional(),
  /** Whether the content policy applied to the request, and what it decided. */
  content_policy: z.enum(['passed', 'refused']).optional(),
  /** Input tokens counted by the content policy (only when a limit applied and the size needed counting). */
  input_tokens: z.number().optional(),
  /** The stage that refused the request, and why. */
  blocked: z.object({ stage: z.enum(['pii', 'content_policy']), reason: z.string() }).optional(),
  /**
   * The answer the content policy stopped (`blocked_answer_patterns`): the pattern and where it
   * matched, never the text. The client got the format's content-filter ending instead.
   */
  answer_stopped: z.object({ pattern: z.string(), reason: z.string() }).optional(),
});
/** What the PII and content-policy stages did. */
export type GuardrailsOutcome = z.infer<typeof guardrailsOutcomeSchema>;
