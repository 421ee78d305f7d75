/** Levenshtein distance between two strings, case-insensitive (a typo in case is no typo worth counting). */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= y.length; j += 1)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[y.length]!;
}

/**
 * The known name a typed one most likely meant: close in spelling (a few letters apart for its length),
 * or the same words in another case or with other separators (`max-tokens`: max_tokens). Names with
 * other numbers in them are other things, not typos (`gpt-5` is no misspelt `gpt-4o`, `team-2` no `team-3`).
 * The server's error messages and the UI's hints suggest by this one rule.
 */
export function closestName(typed: string, known: readonly string[]): string | undefined {
  const plain = (name: string): string => name.replace(/[_-]/g, '').toLowerCase();
  const numbers = (name: string): string => (name.match(/\d+/g) ?? []).join(' ');
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    if (numbers(name) !== numbers(typed)) continue;
    const distance = plain(name) === plain(typed) ? 0 : editDistance(typed, name);
    if (distance <= Math.max(2, Math.floor(name.length / 4)) && (best === undefined || distance < best.distance))
      best = { name, distance };
  }
  return best?.name;
}
