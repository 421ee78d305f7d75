import type { ApiKeyCreate } from '../../../shared/gateway-api.js';
import type { SsoGrantConfig, SsoProviderConfig } from '../../config/sso-schema.js';

/** What a user's claims earn: the key's settings and the mapped values (`groups:ml`) the grant rests on. */
export interface ClaimGrant {
  readonly key: Omit<ApiKeyCreate, 'name' | 'user' | 'expires_at' | 'expires_in_seconds' | 'metadata'>;
  /** `claim:value` of every mapping that matched, checked again at each refresh. */
  readonly matched: readonly string[];
}

type Claims = Readonly<Record<string, unknown>>;

/** The values of a claim as strings: a list claim's strings, or a single string, number or boolean. */
export function claimValues(claims: Claims, name: string): string[] {
  const value = claims[name];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  return [];
}

const LIMITS = [
  'rpm_limit',
  'tpm_limit',
  'user_tpm_budget',
  'user_tpd_budget',
  'team_tpm_budget',
  'team_tpd_budget',
] as const;

/**
 * Maps claims to a key: every mapping whose claim holds its value matches; scopes and models add up
 * over the matches, team, limits and budgets come from the first match that sets them (order in the
 * file is priority). No match: the provider's `default_grant`, or undefined (the user is refused).
 */
export function mapClaims(provider: SsoProviderConfig, claims: Claims): ClaimGrant | undefined {
  const matches: { grant: SsoGrantConfig; id: string }[] = [];
  for (const mapping of provider.mappings) {
    const claim = mapping.claim ?? provider.groups_claim;
    if (claimValues(claims, claim).includes(mapping.value))
      matches.push({ grant: mapping, id: `${claim}:${mapping.value}` });
  }
  if (matches.length === 0) {
    if (provider.default_grant === undefined) return undefined;
    return { key: combine([provider.default_grant]), matched: [] };
  }
  return { key: combine(matches.map((m) => m.grant)), matched: [...new Set(matches.map((m) => m.id))] };
}

function combine(grants: readonly SsoGrantConfig[]): ClaimGrant['key'] {
  const scopes = new Set<string>();
  const models = new Set<string>();
  let anyModelList = false;
  let everyGrantListsModels = true;
  const key: Record<string, unknown> = {};
  for (const grant of grants) {
    for (const scope of grant.scopes ?? []) scopes.add(scope);
    if (grant.models) {
      anyModelList = true;
      for (const model of grant.models) models.add(model);
    } else everyGrantListsModels = false;
    if (key.team === undefined && grant.team !== undefined) key.team = grant.team;
    for (const limit of LIMITS) if (key[limit] === undefined && grant[limit] !== undefined) key[limit] = grant[limit];
  }
  // A match without a model list grants every model, so the union is "every model" then.
  if (anyModelList && everyGrantListsModels) key.models = [...models];
  if (scopes.size > 0) key.scopes = [...scopes];
  return key as ClaimGrant['key'];
}

/** True when every mapped value the grant rested on is still in the claims (a removal from a group ends the key). */
export function stillHolds(provider: SsoProviderConfig, matched: readonly string[], claims: Claims): boolean {
  const now = mapClaims(provider, claims);
  if (now === undefined) return false;
  return matched.every((id) => now.matched.includes(id));
}
