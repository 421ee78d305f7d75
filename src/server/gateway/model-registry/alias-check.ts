import type { ModelSettings } from '../../../shared/gateway-api.js';

const SELF_LOOP = 'points at itself';

/** An alias that cannot work: its name, and why (a sentence that names the alias itself only as the subject). */
export interface AliasIssue {
  readonly alias: string;
  readonly problem: string;
}

/**
 * The first alias of the settings that cannot work as written, or undefined. Aliases resolve in one
 * step, to a name checked against the allow-list; a target not (yet) allowed is fine (its requests are
 * refused until it is), but an alias that points at itself or at another alias never resolves, and one
 * named like an allowed model would silently send that model's requests elsewhere while it stays listed.
 * Both the admin API and the configuration file's validation ask.
 */
export function aliasIssue(settings: Pick<ModelSettings, 'allowed_models' | 'model_aliases'>): AliasIssue | undefined {
  const allowed = new Set(settings.allowed_models);
  const aliases = settings.model_aliases;
  for (const [alias, target] of Object.entries(aliases)) {
    if (target === alias) return { alias, problem: SELF_LOOP };
    if (allowed.has(alias))
      return {
        alias,
        problem: `'${alias}' is an allowed model, and an alias of that name would send its requests to '${target}'; rename the alias or take '${alias}' out of allowed_models`,
      };
    if (Object.hasOwn(aliases, target))
      return {
        alias,
        problem: `'${target}' is itself an alias, and aliases resolve in one step; point '${alias}' at '${aliases[target]}'`,
      };
  }
  return undefined;
}

/** {@link aliasIssue} as one message naming the setting (`model_aliases.fast: ...`), or undefined. */
export function aliasProblem(settings: Pick<ModelSettings, 'allowed_models' | 'model_aliases'>): string | undefined {
  const issue = aliasIssue(settings);
  if (issue === undefined) return undefined;
  // A self-loop reads as a sentence about the alias itself.
  const joiner = issue.problem === SELF_LOOP ? ' ' : ': ';
  return `model_aliases.${issue.alias}${joiner}${issue.problem}`;
}
