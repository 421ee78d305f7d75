/**
 * The most tokens one request can use: the largest context window any model offers (Llama 4 Scout's,
 * 10 million), prompt and answer together. A count past it cannot be one request's, whatever the
 * model; the estimate that replaces it stays close for a real request, and a model with a larger
 * window would be estimated, never billed absurdly.
 */
export const MAX_REPORTED_TOKENS = 10_000_000;

/**
 * A token count as a provider reported it, or undefined when it is not one (negative, fractional, not
 * a safe integer, past {@link MAX_REPORTED_TOKENS}): the gateway then estimates the count, rather than
 * put a negative or billion-dollar row into usage, cost and budgets (a negative count would even cancel
 * real usage when budgets are rebuilt).
 */
export function reportedTokens(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= MAX_REPORTED_TOKENS
    ? value
    : undefined;
}
