import type { ComponentProps } from 'react';
import type { ApiKeyRecord } from '../../../../shared/gateway-api.js';
import { useApiKeys } from '../../api/gateway-queries.js';
import { Select } from '../../components/field.js';

/** How a key is named where its id is stored: its name and prefix (`alice-laptop (gk-4f2a…)`), else its id. */
export function keyLabel(keys: readonly ApiKeyRecord[], id: string): string {
  const key = keys.find((candidate) => candidate.id === id);
  return key ? `${key.name ?? 'Unnamed key'} (${key.key_prefix})` : id;
}

/**
 * Picks an active key by its name and prefix and gives its id, the one thing the settings that name keys
 * (collection readers, cache rules and purges, policy overrides) store. A stored id no key has any more
 * stays listed as itself, so showing a setting never changes it.
 */
export function KeyPicker({
  value,
  onPick,
  emptyLabel,
  exclude = [],
  ...rest
}: Omit<ComponentProps<'select'>, 'value' | 'onChange' | 'children'> & {
  readonly value: string;
  readonly onPick: (id: string) => void;
  /** The choice of no key ("Any key", "Add a key…"). */
  readonly emptyLabel: string;
  /** Ids already chosen elsewhere in the same list, not offered again. */
  readonly exclude?: readonly string[];
}) {
  const keys = useApiKeys(false).data?.data ?? [];
  const ids = [...new Set([...keys.map((key) => key.id), value].filter(Boolean))].filter(
    (id) => id === value || !exclude.includes(id),
  );
  return (
    <Select {...rest} value={value} onChange={(event) => onPick(event.target.value)}>
      <option value="">{emptyLabel}</option>
      {ids.map((id) => (
        <option key={id} value={id}>
          {keyLabel(keys, id)}
        </option>
      ))}
    </Select>
  );
}
