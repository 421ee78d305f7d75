import type { ApiKeyRecord } from '../../../../shared/gateway-api.js';
import type { LimitStatus } from '../../../../shared/principals-api.js';
import { Badge } from '../../components/badge.js';
import { assertNever } from '../../../../shared/assert-never.js';
import { refusingBudget, spentBudget } from '../../lib/limit-status.js';

/** Active / expired / revoked. */
export function KeyStatus({ status }: { readonly status: ApiKeyRecord['status'] }) {
  switch (status) {
    case 'active':
      return <Badge tone="success">Active</Badge>;
    case 'expired':
      return <Badge tone="warning">Expired</Badge>;
    case 'revoked':
      return <Badge tone="danger">Revoked</Badge>;
    default:
      return assertNever(status);
  }
}

/**
 * "Over budget" on an active key one of whose budgets (its own, its user's or its team's) is used up:
 * the key is valid, but every request it sends is refused until that budget's window ends, which
 * "Active" alone would hide. The tooltip names the budget and when it resets. "Refusing requests" when
 * a budget is not used up but what is left is below what one request needs (as the gateway reports
 * it), so that an almost empty meter beside "Active" does not read as a working key.
 */
export function BudgetSpent({ limits }: { readonly limits: readonly LimitStatus[] }) {
  const spent = spentBudget(limits);
  if (spent !== undefined)
    return (
      <span title={`Refusing requests: ${spent.ownerName} ${spent.what} ${spent.amount}. ${spent.reset}`}>
        <Badge tone="warning">Over budget</Badge>
      </span>
    );
  const refusing = refusingBudget(limits);
  if (refusing === undefined) return null;
  return (
    <span
      title={`Refusing requests: ${refusing.ownerName} ${refusing.what}: ${refusing.refusing}. ${refusing.reset}`}
      data-testid="key-refusing"
    >
      <Badge tone="warning">Refusing requests</Badge>
    </span>
  );
}
