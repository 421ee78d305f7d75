import type { ApiKeyRecord } from '../../../../shared/gateway-api.js';
import { Badge } from '../../components/badge.js';
import { assertNever } from '../../lib/assert-never.js';

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
