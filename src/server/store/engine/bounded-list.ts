/** Most items a refusal names before it says how many more there are. */
export const NAMED_ITEMS = 10;

/**
 * Items for a message: the first {@link NAMED_ITEMS} of `items`, described by `describe`, then
 * `and 12 more`. A conflict over thousands of documents still answers a message of bounded size, and
 * only the items named are described.
 */
export function boundedList<T>(items: readonly T[], describe: (item: T) => string): string {
  const shown = items.slice(0, NAMED_ITEMS).map(describe).join(', ');
  return items.length > NAMED_ITEMS ? `${shown} and ${items.length - NAMED_ITEMS} more` : shown;
}
