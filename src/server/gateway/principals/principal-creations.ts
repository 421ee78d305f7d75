import type { KeyPrincipals } from './principals.service.js';

/** An audit event for a user or team record created by issuing a key, and the UI topic it changes. */
export interface PrincipalCreation {
  readonly action: 'team.create' | 'user.create';
  readonly target: string;
  readonly details: Record<string, unknown>;
  /** What open Users and Teams views are told, as creating the record through the admin API tells them. */
  readonly changed: { readonly topic: 'teams' | 'users'; readonly ids: readonly string[] };
}

/**
 * The audit events of the records a key's issuance created: the same actions as creating them
 * through the admin API, marked `with_key` so the trail shows where they came from.
 */
export function principalCreations(ensured: KeyPrincipals): PrincipalCreation[] {
  const events: PrincipalCreation[] = [];
  if (ensured.createdTeam !== null)
    events.push({
      action: 'team.create',
      target: ensured.createdTeam,
      details: { id: ensured.createdTeam, with_key: true },
      changed: { topic: 'teams', ids: [ensured.createdTeam] },
    });
  if (ensured.createdUser !== null)
    events.push({
      action: 'user.create',
      target: ensured.createdUser,
      details: { id: ensured.createdUser, team: ensured.team, with_key: true },
      changed: { topic: 'users', ids: [ensured.createdUser] },
    });
  return events;
}
