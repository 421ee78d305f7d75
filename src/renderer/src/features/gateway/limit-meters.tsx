import type { LimitStatus } from '../../../../shared/principals-api.js';
import { limitMeterView } from '../../lib/limit-status.js';
import { limitWordOf } from '../../lib/limit-words.js';
import { unpricedSentence } from './unpriced-models.js';

/** Whether a limit counts dollars (a spend budget), which models without a price never fill. */
function countsDollars(status: LimitStatus): boolean {
  const word = limitWordOf(status.limit_type);
  return word === 'spendBudgetDay' || word === 'spendBudgetMonth';
}

/**
 * One limit: whose it is, what it counts, a bar coloured as it fills, and (in the tooltip) the owner
 * by name and when it frees up. A spend budget names the reachable models it does not count.
 */
export function LimitMeter({
  status,
  showOwner = true,
  unpriced = [],
}: {
  readonly status: LimitStatus;
  readonly showOwner?: boolean;
  /** The models without a price its owner can reach. */
  readonly unpriced?: readonly string[];
}) {
  const view = limitMeterView(status);
  const leftOut =
    countsDollars(status) && unpriced.length > 0 ? unpricedSentence(unpriced, 'this budget does not count') : '';
  const label = showOwner ? `${view.owner} ${view.what}` : view.what;
  // In a narrow table the short name, so that a cut label still tells a day's budget from a month's.
  const short = showOwner ? `${view.owner} ${view.short}` : view.short;
  const named = showOwner ? `${view.ownerName} ${view.what}` : view.what;
  const refusing = view.refusing ? `Refusing requests: ${view.refusing}` : '';
  const said = [view.reset, refusing, leftOut].filter(Boolean);
  return (
    <div
      className={`limit-meter limit-${refusing ? 'full' : view.level}`}
      role="meter"
      aria-label={named}
      aria-valuemin={0}
      aria-valuemax={status.limit}
      aria-valuenow={Math.min(status.used, status.limit)}
      aria-valuetext={`${view.amount}. ${said.join(' ')}`}
      title={`${named}: ${view.amount}\n${said.join('\n')}`}
      data-testid="limit-meter"
      data-limit-type={status.limit_type}
    >
      <div className="limit-meter-text">
        <span className="truncate limit-label-full" title={named}>
          {label}
        </span>
        <span className="truncate limit-label-short" title={named} aria-hidden="true">
          {short}
        </span>
        <span className="mono limit-meter-amount">{view.amount}</span>
      </div>
      <div className="limit-meter-track" aria-hidden="true">
        <div className="limit-meter-fill" style={{ width: `${Math.round(view.share * 100)}%` }} />
      </div>
      {refusing && (
        // Read out through aria-valuetext already.
        <div className="limit-meter-note" aria-hidden="true" data-testid="limit-meter-refusing">
          {`Refusing: ${view.refusing}`}
        </div>
      )}
      {leftOut && (
        // Read out through aria-valuetext already: hidden here so it is not said twice.
        <div className="muted limit-meter-unpriced" aria-hidden="true" data-testid="limit-meter-unpriced">
          {`Not counting ${unpriced.join(', ')} (no price)`}
        </div>
      )}
    </div>
  );
}

/**
 * Every limit of a key, user or team as compact meters, or a muted word when there are none. Its spend
 * budgets name the `unpriced` models (those without a price it can reach), which they never count.
 */
export function LimitMeters({
  limits,
  showOwner = true,
  testId,
  unpriced,
}: {
  readonly limits: readonly LimitStatus[] | undefined;
  readonly showOwner?: boolean;
  readonly testId?: string;
  readonly unpriced?: readonly string[];
}) {
  if (!limits?.length) return <span className="muted">No limits</span>;
  return (
    <div className="limit-meters" data-testid={testId}>
      {limits.map((status) => (
        <LimitMeter
          key={`${status.subject}|${status.limit_type}`}
          status={status}
          showOwner={showOwner}
          unpriced={unpriced}
        />
      ))}
    </div>
  );
}
