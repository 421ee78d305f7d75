/** The sections of the configuration file that hold rules per model, each a map keyed by model name. */
const MODEL_RULE_SECTIONS = ['pii', 'content_policy', 'cache', 'limits', 'rag'] as const;

/** What the check reads of a configuration: the `llm` section and the `models` map of each rule section. */
export type ModelRulesConfig = {
  readonly llm: {
    readonly allowed_models: readonly string[];
    readonly model_aliases: Readonly<Record<string, string>>;
  };
} & {
  readonly [section in (typeof MODEL_RULE_SECTIONS)[number]]: { readonly models?: Readonly<Record<string, unknown>> };
};

/** One per-model rule that can never apply: where it is (`pii.models.fast`) and why. */
export interface ModelRuleIssue {
  readonly path: readonly [string, 'models', string];
  readonly message: string;
}

/**
 * Per-model rules of the file (PII, content policy, cache, limits, RAG) that name an alias or a model
 * outside `llm.allowed_models`. Requests reach these rules by the canonical name they are routed to, so
 * such a rule would be accepted and then never apply — a PII `block` that blocks nothing. The admin
 * API refuses the same names; the file is checked against its own `llm` section, which is what a
 * reset of the model settings brings back.
 */
export function modelRuleIssues(config: ModelRulesConfig): ModelRuleIssue[] {
  const allowed = new Set(config.llm.allowed_models);
  const aliases = config.llm.model_aliases;
  const issues: ModelRuleIssue[] = [];
  for (const section of MODEL_RULE_SECTIONS) {
    for (const model of Object.keys(config[section].models ?? {})) {
      if (allowed.has(model)) continue;
      const target = Object.hasOwn(aliases, model) ? aliases[model] : undefined;
      const message =
        target !== undefined
          ? `'${model}' is an alias, and rules apply to the model a request is routed to; name its target '${target}'`
          : `'${model}' is not in llm.allowed_models, so this rule would never apply`;
      issues.push({ path: [section, 'models', model], message });
    }
  }
  return issues;
}
