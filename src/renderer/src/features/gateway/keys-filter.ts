import type { ApiKeyRecord } from '../../../../shared/gateway-api.js';

/**
 * Whether a key matches what was typed in the Keys screen's filter: any part of its name, id,
 * shown prefix (without its ellipsis), user or team, in any case. Every key matches an empty filter.
 */
export function keyMatches(key: ApiKeyRecord, filter: string): boolean {
  const needle = filter.trim().toLowerCase();
  if (!needle) return true;
  return [key.name, key.id, key.key_prefix.replace(/…$/, ''), key.user, key.team].some((value) =>
    value?.toLowerCase().includes(needle),
  );
}
