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
 * or written to the provider's prompt cache (priced apart from the rest) and completion tokens spent
 * reasoning (billed, never shown as text). Parts of 0 are left out.
 */
export function tokenParts(
  counts: TokenCounts,
  format: (value: number) => string,
): [prompt: string, completion: string] {
  const promptParts = [
    counts.cache_read_prompt_tokens ? `${format(counts.cache_read_prompt_tokens)} cached` : undefined,
    counts.cache_write_prompt_tokens ? `${format(counts.cache_write_prompt_tokens)} written to cache` : undefined,
  ].filter(Boolean);
  const withParts = (text: string, parts: readonly unknown[]): string =>
    parts.length > 0 ? `${text} (${parts.join(', ')})` : text;
  return [
    withParts(format(counts.prompt_tokens), promptParts),
    withParts(
      format(counts.completion_tokens),
      counts.reasoning_tokens ? [`${format(counts.reasoning_tokens)} reasoning`] : [],
    ),
  ];
}
