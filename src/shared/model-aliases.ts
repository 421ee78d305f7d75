import type { ModelSettings } from './gateway-api.js';

/**
 * An alias that cannot work as written. Aliases resolve in one step, to a name checked against the
 * allow-list; a target not (yet) allowed is fine (its requests are refused until it is), but an alias
 * that points at itself (`self`) or at another alias (`chained`; `next` is where that chain of
 * aliases ends, the name to point at instead, or undefined when it loops back) never resolves, and one named like an allowed model (`allowed_model`) would silently send that model's
 * requests elsewhere while it stays listed.
 */
export type AliasBreak =
  | { readonly kind: 'self'; readonly alias: string }
  | { readonly kind: 'allowed_model'; readonly alias: string; readonly target: string }
  | { readonly kind: 'chained'; readonly alias: string; readonly target: string; readonly next: string | undefined };

/**
 * Every alias of the settings that cannot work, in the order the aliases are listed (one per alias).
 * The gateway (admin API and configuration file) refuses settings with any; the UI checks its draft with it.
 */
export function aliasBreaks(settings: Pick<ModelSettings, 'allowed_models' | 'model_aliases'>): AliasBreak[] {
  const allowed = new Set(settings.allowed_models);
  const aliases = settings.model_aliases;
  const breaks: AliasBreak[] = [];
  for (const [alias, target] of Object.entries(aliases)) {
    if (target === alias) breaks.push({ kind: 'self', alias });
    else if (allowed.has(alias)) breaks.push({ kind: 'allowed_model', alias, target });
    else if (Object.hasOwn(aliases, target))
      breaks.push({ kind: 'chained', alias, target, next: chainEnd(aliases, target) });
  }
  return breaks;
}

/** Where a chain of aliases starting at `name` ends (the first name that is no alias), or undefined when it loops. */
function chainEnd(aliases: Readonly<Record<string, string>>, name: string): string | undefined {
  const seen = new Set<string>();
  let at = name;
  while (Object.hasOwn(aliases, at)) {
    if (seen.has(at)) return undefined;
    seen.add(at);
    at = aliases[at]!;
  }
  return at;
}

/**
 * Aliases whose target is not (yet) in the allow-list, as `[alias, target]` pairs: they work once it
 * is, and until then every request through them is refused, so a start with them says so.
 */
export function aliasesAwaitingTarget(
  settings: Pick<ModelSettings, 'allowed_models' | 'model_aliases'>,
): Array<readonly [string, string]> {
  const allowed = new Set(settings.allowed_models);
  return Object.entries(settings.model_aliases).filter(([, target]) => !allowed.has(target));
}
