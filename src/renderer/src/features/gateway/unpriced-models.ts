import type { PricedModelSettingsView } from '../../../../shared/gateway-api.js';
import { formatCost } from '../../lib/format.js';

/** The prices part of `GET /internal/models`, as the cost and budget marks read it. */
export type PriceSettings = Pick<PricedModelSettingsView, 'pricing' | 'unpriced_models'>;

/**
 * The unpriced models a key, user or team can reach: those of its allow-list without a price, or every
 * unpriced allowed model when it has no list of its own (`null`, as users and teams never do).
 */
export function unpricedReachable(
  models: readonly string[] | null | undefined,
  unpriced: readonly string[],
): readonly string[] {
  if (!models) return unpriced;
  return unpriced.filter((model) => models.includes(model));
}

/** "a", "a and b", "a, b and c". */
function listed(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * Says which models a dollar figure leaves out: "team-llama has no price: these budgets do not count
 * it". `notCounting` is the figure and its verb ("these budgets do not count").
 */
export function unpricedSentence(names: readonly string[], notCounting: string): string {
  const one = names.length === 1;
  return `${listed(names)} ${one ? 'has' : 'have'} no price: ${notCounting} ${one ? 'it' : 'them'}.`;
}

/** Why a cost reads "unpriced" rather than "$0". */
export const UNPRICED_COST_TITLE =
  'This model has no price, so its requests are counted as $0 and no dollar budget counts them. Set its price on the Models screen.';

/** A cost as the views show it: dollars, "unpriced", or none at all (undefined, shown as "—"). */
export interface CostView {
  readonly text: string | undefined;
  readonly unpriced: boolean;
}

/**
 * A request's or a model's cost in words. A cost of 0 with tokens spent on a model without a price is
 * "unpriced" (it was never counted, not free); on a model priced at 0 on purpose it is "$0". A request
 * with no tokens (a refusal) or of a model the prices do not name (the demo models) has no cost: "—".
 * The prices are those in force now: a price set since the request was served reads as if it applied then.
 */
export function costView(
  cost: number,
  model: string | null,
  tokens: number,
  prices: PriceSettings | undefined,
): CostView {
  if (cost !== 0) return { text: formatCost(cost), unpriced: false };
  if (model === null || prices === undefined) return { text: undefined, unpriced: false };
  // Nothing spent is no cost, priced model or not: a refusal next to a free answer must not read "$0" too.
  if (tokens === 0) return { text: undefined, unpriced: false };
  if (Object.hasOwn(prices.pricing, model)) return { text: formatCost(0), unpriced: false };
  if (prices.unpriced_models.includes(model)) return { text: 'unpriced', unpriced: true };
  return { text: undefined, unpriced: false };
}
