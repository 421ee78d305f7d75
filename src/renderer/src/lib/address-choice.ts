/**
 * A key of `choices` named in the address (a query parameter's value), or the default for anything
 * else (`toString` included): a hand-edited or outdated link opens the default view, never a broken one.
 */
export function choiceOf<K extends string>(
  choices: Readonly<Record<K, unknown>>,
  value: string | null,
  fallback: K,
): K {
  return value !== null && Object.hasOwn(choices, value) ? (value as K) : fallback;
}
