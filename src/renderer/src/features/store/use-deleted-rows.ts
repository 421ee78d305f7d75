import { useLayoutEffect, useRef, useState } from 'react';

/**
 * Rows a write has just deleted, left out of `rows` until the list is read again. A delete dialog
 * closes as soon as the store answers, before the list's refresh lands: the row goes in the same
 * update as the dialog, so the focus handed back to its opener (the row's button) finds it gone and
 * moves to the table, as it would had the refresh been awaited.
 */
export function useDeletedRows<T>(
  rows: readonly T[] | undefined,
  keyOf: (row: T) => string,
): { readonly shown: readonly T[] | undefined; readonly hide: (key: string) => void } {
  // Tied to the list as it was read: a newer read (the refresh) says what exists, also a name made again.
  const [deleted, setDeleted] = useState<{
    readonly from: readonly T[] | undefined;
    readonly keys: readonly string[];
  }>();
  // The list as it is when a delete's answer arrives, not as it was when its dialog was opened.
  const latest = useRef(rows);
  useLayoutEffect(() => {
    latest.current = rows;
  });
  const shown =
    deleted !== undefined && deleted.from === rows ? rows?.filter((row) => !deleted.keys.includes(keyOf(row))) : rows;
  const hide = (key: string): void =>
    setDeleted((previous) => {
      const from = latest.current;
      return { from, keys: previous !== undefined && previous.from === from ? [...previous.keys, key] : [key] };
    });
  return { shown, hide };
}
