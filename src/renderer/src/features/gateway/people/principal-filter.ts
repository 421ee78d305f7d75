import type { TeamRecord, UserRecord } from '../../../../../shared/principals-api.js';

/** What the Users & teams filter looks in: a team's id and name, a user's id, name, email and team. */
function searchedText(record: TeamRecord | UserRecord): readonly (string | null | undefined)[] {
  return 'email' in record ? [record.id, record.name, record.email, record.team] : [record.id, record.name];
}

/** Whether a user or team matches the Users & teams filter: any part of those fields, in any case. */
export function principalMatches(record: TeamRecord | UserRecord, filter: string): boolean {
  const needle = filter.trim().toLowerCase();
  if (!needle) return true;
  return searchedText(record).some((value) => value?.toLowerCase().includes(needle));
}
