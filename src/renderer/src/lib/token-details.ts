/** A request's or a period's tokens with the parts providers report separately (null or absent: not said). */
export interface TokenCounts {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly cache_read_prompt_tokens?: number | null;
  readonly cache_write_prompt_tokens?: number | null;
  readonly reasoning_tokens?: number | null;
}

/**
 * The prompt and completion counts, each with the parts that explain its cost: prompt tokens read from
 * or written to the provider's prompt cache (priced apart from the rest; "cached" alone would read as
 * the gateway's own response cache, whose hits cost no tokens) and completion tokens spent reasoning
 * (billed, never shown as text). Parts of 0 are left out. `units` follow each count (` in`, ` out`).
 */
export function tokenParts(
  counts: TokenCounts,
  format: (value: number) => string,
  units: readonly [prompt: string, completion: string] = ['', ''],
): [prompt: string, completion: string] {
  const { cache_read_prompt_tokens: read, cache_write_prompt_tokens: written } = counts;
  const promptParts = [
    read ? `${format(read)} read from the provider's prompt cache` : undefined,
    written ? `${format(written)} written to ${read ? 'it' : "the provider's prompt cache"}` : undefined,
  ].filter(Boolean);
  const withParts = (text: string, parts: readonly unknown[]): string =>
    parts.length > 0 ? `${text} (${parts.join(', ')})` : text;
  return [
    withParts(`${format(counts.prompt_tokens)}${units[0]}`, promptParts),
    withParts(
      `${format(counts.completion_tokens)}${units[1]}`,
      counts.reasoning_tokens ? [`${format(counts.reasoning_tokens)} reasoning`] : [],
    ),
  ];
}
