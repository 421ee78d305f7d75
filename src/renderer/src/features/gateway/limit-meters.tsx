import type { LimitStatus } from '../../../../shared/principals-api.js';
import { limitMeterView } from '../../lib/limit-status.js';

/**
 * One limit: whose it is, what it counts, a bar coloured as it fills, and (in the tooltip) the owner
 * by name and when it frees up.
 */
export function LimitMeter({
  status,
  showOwner = true,
}: {
  readonly status: LimitStatus;
  readonly showOwner?: boolean;
}) {
  const view = limitMeterView(status);
  const label = showOwner ? `${view.owner} ${view.what}` : view.what;
  const named = showOwner ? `${view.ownerName} ${view.what}` : view.what;
  return (
    <div
      className={`limit-meter limit-${view.level}`}
      role="meter"
      aria-label={named}
      aria-valuemin={0}
      aria-valuemax={status.limit}
      aria-valuenow={Math.min(status.used, status.limit)}
      aria-valuetext={`${view.amount}. ${view.reset}`}
      title={`${named}: ${view.amount}\n${view.reset}`}
      data-testid="limit-meter"
      data-limit-type={status.limit_type}
    >
      <div className="limit-meter-text">
        <span className="truncate">{label}</span>
        <span className="mono limit-meter-amount">{view.amount}</span>
      </div>
      <div className="limit-meter-track" aria-hidden="true">
        <div className="limit-meter-fill" style={{ width: `${Math.round(view.share * 100)}%` }} />
      </div>
    </div>
  );
}

/** Every limit of a key, user or team as compact meters, or a muted word when there are none. */
export function LimitMeters({
  limits,
  showOwner = true,
  testId,
}: {
  readonly limits: readonly LimitStatus[] | undefined;
  readonly showOwner?: boolean;
  readonly testId?: string;
}) {
  if (!limits?.length) return <span className="muted">No limits</span>;
  return (
    <div className="limit-meters" data-testid={testId}>
      {limits.map((status) => (
        <LimitMeter key={`${status.subject}|${status.limit_type}`} status={status} showOwner={showOwner} />
      ))}
    </div>
  );
}
