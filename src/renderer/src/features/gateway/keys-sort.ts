import type { ApiKeyRecord } from '../../../../shared/gateway-api.js';

/** What the Keys table can be sorted by. */
export const KEY_SORT_FIELDS = ['name', 'created', 'last_used', 'spend_today', 'expires'] as const;
/** One of {@link KEY_SORT_FIELDS}. */
export type KeySortField = (typeof KEY_SORT_FIELDS)[number];

/** A sort of the Keys table, as the address keeps it (`sort=name`, `sort=-last_used`). */
export interface KeySort {
  readonly field: KeySortField;
  readonly descending: boolean;
}

/**
 * The direction a first click sorts in: what an operator looks for first is the newest, the most
 * recently used, the biggest spender, the soonest to expire, and names from A.
 */
const FIRST_DESCENDING: Readonly<Record<KeySortField, boolean>> = {
  name: false,
  created: true,
  last_used: true,
  spend_today: true,
  expires: false,
};

/** The sort an address's `sort` asks for; undefined (the gateway's order, newest first) when absent or unknown. */
export function parseKeySort(value: string | null): KeySort | undefined {
  if (!value) return undefined;
  const descending = value.startsWith('-');
  const field = KEY_SORT_FIELDS.find((known) => known === (descending ? value.slice(1) : value));
  return field === undefined ? undefined : { field, descending };
}

/** The `sort` value of `sort` in the address. */
export function keySortParam(sort: KeySort): string {
  return `${sort.descending ? '-' : ''}${sort.field}`;
}

/** The sort a click on `field`'s header gives: the other direction when it is already the sort, else its first one. */
export function nextKeySort(current: KeySort | undefined, field: KeySortField): KeySort {
  return current?.field === field
    ? { field, descending: !current.descending }
    : { field, descending: FIRST_DESCENDING[field] };
}

/** The value a key is sorted by; null (no name, never used, no expiry, no spend known) sorts last either way. */
function sortValue(
  key: ApiKeyRecord,
  field: KeySortField,
  spendToday: ReadonlyMap<string, number>,
): string | number | null {
  switch (field) {
    case 'name':
      return key.name?.toLowerCase() ?? null;
    case 'created':
      return Date.parse(key.created_at);
    case 'last_used':
      return key.last_used_at === null ? null : Date.parse(key.last_used_at);
    case 'spend_today':
      return spendToday.get(key.id) ?? 0;
    case 'expires':
      return key.expires_at === null ? null : Date.parse(key.expires_at);
  }
}

/** `keys` in the order of `sort` (a copy; ties keep the gateway's order). */
export function sortKeys(
  keys: readonly ApiKeyRecord[],
  sort: KeySort | undefined,
  spendToday: ReadonlyMap<string, number> = new Map(),
): readonly ApiKeyRecord[] {
  if (sort === undefined) return keys;
  const direction = sort.descending ? -1 : 1;
  return keys
    .map((key) => ({ key, value: sortValue(key, sort.field, spendToday) }))
    .sort((a, b) => {
      if (a.value === b.value) return 0;
      if (a.value === null) return 1;
      if (b.value === null) return -1;
      return (a.value < b.value ? -1 : 1) * direction;
    })
    .map(({ key }) => key);
}
