import { useModelSettings } from '../../api/gateway-queries.js';
import { href, Link } from '../../app/router.js';
import { unpricedReachable, unpricedSentence } from './unpriced-models.js';

/**
 * The unpriced models a key (its allow-list) or a user or team (`null`: every allowed model) can reach;
 * none while the model settings load or when they cannot be read.
 */
export function useUnpricedReachable(models: readonly string[] | null | undefined): readonly string[] {
  const settings = useModelSettings();
  return settings.data ? unpricedReachable(models, settings.data.unpriced_models) : [];
}

/**
 * Beside a dollar figure: which models it leaves out for want of a price, with the way to the Models
 * screen where they are priced. Nothing when every reachable model has a price.
 */
export function UnpricedBudgetNote({
  models,
  notCounting = 'these budgets do not count',
  className = 'field-hint form-span',
}: {
  /** The key's allow-list; null or undefined: every allowed model. */
  readonly models: readonly string[] | null | undefined;
  /** The figure and its verb: "these budgets do not count", "the spend shown does not count". */
  readonly notCounting?: string;
  readonly className?: string;
}) {
  const unpriced = useUnpricedReachable(models);
  if (unpriced.length === 0) return null;
  return (
    // A note rather than a hint of one field: it concerns both budgets, and is read with them.
    <p className={className} role="note" data-testid="unpriced-budget-note">
      {unpricedSentence(unpriced, notCounting)} Set a price on the{' '}
      <Link to={href('gateway/models')}>Models screen</Link>.
    </p>
  );
}
