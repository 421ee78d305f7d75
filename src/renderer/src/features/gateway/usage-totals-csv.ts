import { csvLine } from '../../../../shared/csv.js';

/** One row of the Usage screen's totals table, as the screen computes it. */
export interface UsageTotalsRow {
  readonly label: string;
  readonly requests: number;
  readonly tokens: number;
  readonly cost: number;
  readonly errors: number;
  readonly latency: number | null;
}

/** The totals table as CSV: the table's columns, figures unformatted so a spreadsheet can sum them. */
export function usageTotalsCsv(groupHeader: string, rows: readonly UsageTotalsRow[]): string {
  const header = csvLine([groupHeader, 'Requests', 'Tokens', 'Cost (USD)', 'Errors', 'Avg latency (ms)']);
  return (
    header +
    rows.map((row) => csvLine([row.label, row.requests, row.tokens, row.cost, row.errors, row.latency])).join('')
  );
}

/** `usage-per-model-<since>-to-<until>.csv`, times in UTC without colons, as the server names its exports. */
export function usageCsvFileName(what: string, since: string, until: string): string {
  const stamp = (iso: string): string => iso.replace(/\.\d{3}Z$/, 'Z').replaceAll(':', '-');
  return `usage-${what}-${stamp(since)}-to-${stamp(until)}.csv`;
}
