import type { ModelSettings } from '../../../shared/gateway-api.js';
import { aliasBreaks, aliasesAwaitingTarget, type AliasBreak } from '../../../shared/model-aliases.js';
import { closestName } from '../../../shared/closest-name.js';
import { assertNever } from '../../../shared/assert-never.js';

/** An alias that cannot work: its name, and why (a sentence that names the alias itself only as the subject). */
export interface AliasIssue {
  readonly alias: string;
  readonly problem: string;
}

function problemOf(found: AliasBreak): string {
  switch (found.kind) {
    case 'self':
      return 'points at itself';
    case 'allowed_model':
      return `'${found.alias}' is an allowed model, and an alias of that name would send its requests to '${found.target}'; rename the alias or take '${found.alias}' out of allowed_models`;
    case 'chained':
      return found.next === undefined
        ? `'${found.target}' is itself an alias, in a loop of aliases that never resolves; point '${found.alias}' at an allowed model`
        : `'${found.target}' is itself an alias, and aliases resolve in one step; point '${found.alias}' at '${found.next}'`;
    default:
      return assertNever(found);
  }
}

/** Every alias of the settings that cannot work as written ({@link aliasBreaks}): the file names them all at once. */
export function aliasIssues(settings: Pick<ModelSettings, 'allowed_models' | 'model_aliases'>): AliasIssue[] {
  return aliasBreaks(settings).map((found) => ({ alias: found.alias, problem: problemOf(found) }));
}

/** The first of {@link aliasIssues} as one message naming the setting (`model_aliases.fast: ...`), or undefined. */
export function aliasProblem(settings: Pick<ModelSettings, 'allowed_models' | 'model_aliases'>): string | undefined {
  const found = aliasBreaks(settings)[0];
  if (found === undefined) return undefined;
  // A self-loop reads as a sentence about the alias itself.
  return `model_aliases.${found.alias}${found.kind === 'self' ? ' ' : ': '}${problemOf(found)}`;
}

/**
 * A warning per alias whose target is not (yet) an allowed model (`llm.model_aliases.fast: ...`), with
 * the allowed model it most likely meant: such an alias is accepted, since its target may be allowed
 * later, so a misspelt target would otherwise be found only by the requests it refuses.
 */
export function aliasTargetWarnings(settings: Pick<ModelSettings, 'allowed_models' | 'model_aliases'>): string[] {
  return aliasesAwaitingTarget(settings).map(([alias, target]) => {
    const meant = closestName(target, settings.allowed_models);
    return (
      `llm.model_aliases.${alias}: its target '${target}' is not in llm.allowed_models, so requests for '${alias}' are refused` +
      ` (unless model settings saved through the admin API allow it)${meant !== undefined ? `; did you mean '${meant}'?` : ''}`
    );
  });
}
