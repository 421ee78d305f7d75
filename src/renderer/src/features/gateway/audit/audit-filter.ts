import { AUDIT_ACTIONS } from '../../../../../shared/gateway-api.js';
import type { AuditFilter } from '../../../api/audit-queries.js';

/** The Audit screen's filter as the address holds it: `action`, `target`, and days `from`/`to` (YYYY-MM-DD, both included). */
export interface AuditAddressFilter {
  readonly action: string;
  readonly target: string;
  readonly from: string;
  readonly to: string;
}

/** Families of actions, as the action filter offers them (`api_key.*`): every prefix before a last part. */
export const ACTION_FAMILIES: readonly string[] = [
  ...new Set(AUDIT_ACTIONS.map((action) => `${action.slice(0, action.indexOf('.'))}.*`)),
];

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filter in the address; a day that is not one is left out rather than sent. */
export function filterFromSearch(params: URLSearchParams): AuditAddressFilter {
  const day = (name: string): string => {
    const value = params.get(name) ?? '';
    return DAY.test(value) ? value : '';
  };
  return { action: params.get('action') ?? '', target: params.get('target') ?? '', from: day('from'), to: day('to') };
}

/** The start of a local day as an ISO time: the days are the user's, not UTC's. */
function dayStart(day: string, laterBy = 0): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, date + laterBy).toISOString();
}

/** What the API is asked: `to` is a whole day, so `until` (excluded) is the start of the next. */
export function apiFilter(filter: AuditAddressFilter): AuditFilter {
  return {
    action: filter.action,
    target: filter.target.trim(),
    since: filter.from ? dayStart(filter.from) : '',
    until: filter.to ? dayStart(filter.to, 1) : '',
  };
}

/** Whether anything narrows the list (the empty state then says so, with a way out). */
export function isFiltered(filter: AuditAddressFilter): boolean {
  return Boolean(filter.action || filter.target.trim() || filter.from || filter.to);
}
