/** More tokens than any request can use: context windows hold a few million at most. */
export const MAX_REPORTED_TOKENS = 100_000_000;

/**
 * A token count as a provider reported it, or undefined when it is not one (negative, fractional,
 * absurd): the gateway then estimates the count, rather than put a negative or billion-dollar row into
 * usage, cost and budgets (a negative count would even cancel real usage when budgets are rebuilt).
 */
export function reportedTokens(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_REPORTED_TOKENS
    ? value
    : undefined;
}
