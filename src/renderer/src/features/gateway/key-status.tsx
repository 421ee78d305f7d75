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

/** "120 rpm · 50K tpm", or "No limits". */
export function describeLimits(key: ApiKeyRecord): string {
  const parts: string[] = [];
  if (key.rpm_limit) parts.push(`${key.rpm_limit} rpm`);
  if (key.tpm_limit) parts.push(`${key.tpm_limit} tpm`);
  if (key.user_tpd_budget || key.user_tpm_budget) parts.push('user budget');
  if (key.team_tpd_budget || key.team_tpm_budget) parts.push('team budget');
  return parts.length ? parts.join(' · ') : 'No limits';
}
