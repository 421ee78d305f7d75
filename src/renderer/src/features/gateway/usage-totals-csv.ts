import { csvLine } from '../../../../shared/csv.js';
import type { UsageGroupTotals } from '../../lib/usage-series.js';

/** One row of the Usage screen's totals table, as the screen computes it. */
export type UsageTotalsRow = Omit<UsageGroupTotals, 'key'>;

/** The totals table as CSV: the table's columns, figures unformatted so a spreadsheet can sum them. */
export function usageTotalsCsv(groupHeader: string, rows: readonly UsageTotalsRow[]): string {
  const header = csvLine([
    groupHeader,
    'Requests',
    'Tokens',
    'Cost (USD)',
    'Errors',
    'Cache hits',
    'Saved by the cache (USD)',
    'Avg latency (ms)',
  ]);
  const line = (row: UsageTotalsRow): string =>
    csvLine([row.label, row.requests, row.tokens, row.cost, row.errors, row.cacheHits, row.savedCost, row.latency]);
  return header + rows.map(line).join('');
}

/** `usage-per-model-<since>-to-<until>.csv`, times in UTC without colons, as the server names its exports. */
export function usageCsvFileName(what: string, since: string, until: string): string {
  const stamp = (iso: string): string => iso.replace(/\.\d{3}Z$/, 'Z').replaceAll(':', '-');
  return `usage-${what}-${stamp(since)}-to-${stamp(until)}.csv`;
}
