import type { Config } from '../../config/schema.js';

/** Token counts of one request, as accounted; the cache counts are parts of `promptTokens`. */
export interface TokenCounts {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly cachedPromptTokens?: number | undefined;
  readonly cacheWritePromptTokens?: number | undefined;
  /** Of the cache writes, those for an hour. */
  readonly cacheWrite1hPromptTokens?: number | undefined;
  readonly webSearchRequests?: number | undefined;
}

interface Price {
  readonly input: number;
  readonly output: number;
  readonly cachedInput: number;
  readonly cacheWrite: number;
  readonly cacheWrite1h: number;
  /** Per thousand searches. */
  readonly webSearch: number;
}

/**
 * Prices per million tokens, looked up by public model name, then by the upstream's name. The prices in
 * force change with the model settings (`replace`); holders keep the same table.
 */
export class PriceTable {
  private prices: ReadonlyMap<string, Price> = new Map();

  constructor(pricing: Config['pricing']) {
    this.replace(pricing);
  }

  /** Prices requests from now on by `pricing`, swapped whole (a request never sees half of it). */
  replace(pricing: Config['pricing']): void {
    this.prices = new Map(
      Object.entries(pricing).map(([model, p]) => [
        model,
        {
          input: p.input_per_mtok,
          output: p.output_per_mtok,
          // Unset, cache reads and writes cost what other input costs.
          cachedInput: p.cached_input_per_mtok ?? p.input_per_mtok,
          cacheWrite: p.cache_write_per_mtok ?? p.input_per_mtok,
          cacheWrite1h: p.cache_write_1h_per_mtok ?? p.cache_write_per_mtok ?? p.input_per_mtok,
          webSearch: p.web_search_per_1k ?? 0,
        },
      ]),
    );
  }

  /** Cost in US dollars; 0 for models without a price (the demo provider, local servers). */
  cost(model: string | null, upstreamModel: string | null, tokens: TokenCounts): number {
    const price =
      (model !== null ? this.prices.get(model) : undefined) ??
      (upstreamModel !== null ? this.prices.get(upstreamModel) : undefined);
    if (!price) return 0;
    const read = tokens.cachedPromptTokens ?? 0;
    const written = tokens.cacheWritePromptTokens ?? 0;
    const hourLong = Math.min(written, tokens.cacheWrite1hPromptTokens ?? 0);
    const plain = Math.max(0, tokens.promptTokens - read - written);
    return (
      (plain * price.input +
        read * price.cachedInput +
        (written - hourLong) * price.cacheWrite +
        hourLong * price.cacheWrite1h +
        tokens.completionTokens * price.output) /
        1_000_000 +
      ((tokens.webSearchRequests ?? 0) * price.webSearch) / 1000
    );
  }
}

/**
 * A sum of dollars as the views show it: to the billionth of a dollar, well below any request's cost.
 * Sums of floating-point costs come out as `4.1745019999999995` in one grouping and `4.174502` in
 * another; rounded, every view agrees.
 */
export function roundUsd(usd: number): number {
  const nano = Math.round(usd * 1e9);
  return Number.isFinite(nano) ? nano / 1e9 : usd;
}
