import { Readable } from 'node:stream';
import type { UsageRow } from '../../../shared/gateway-api.js';
import { usageCsvHeader, usageCsvLine } from './usage-csv.js';
import type { UsageLogFilter, UsageRepository } from './usage.repository.js';

/** Rows read per query: one page in memory at a time, whatever the export's size. */
const PAGE_ROWS = 1000;

/** A CSV export of the usage log, ready to send. */
export interface UsageCsvExport {
  /** The rows the file holds. */
  readonly rows: number;
  /** When the export was cut at its maximum: the `before` that exports the rest; null when it holds every match. */
  readonly nextCursor: number | null;
  /** The header record, then the rows newest first, read page by page as the client takes them. */
  readonly body: Readable;
}

/** The matching rows newest first, from `before`, a page at a time, at most `max` of them. */
function* pagesOf(
  usage: UsageRepository,
  filter: Omit<UsageLogFilter, 'limit'>,
  before: number | undefined,
  max: number,
): Generator<UsageRow[]> {
  let left = max;
  let cursor = before;
  while (left > 0) {
    const limit = Math.min(PAGE_ROWS, left);
    const page = usage.logs({ ...filter, before: cursor, limit });
    if (page.length > 0) yield page;
    if (page.length < limit) return;
    left -= page.length;
    cursor = page[page.length - 1]!.id;
  }
}

/**
 * Every row the filter matches (from its `before`, as a page of the JSON listing would start), up to
 * `maxRows`. The rows are counted first, without keeping them, because the headers that say whether
 * the file was cut go out before the first row; the file then holds exactly the rows counted, those
 * written in between left out.
 */
export function usageCsvExport(
  usage: UsageRepository,
  filter: Omit<UsageLogFilter, 'limit'>,
  maxRows: number,
): UsageCsvExport {
  let counted = 0;
  let newest: number | undefined;
  let oldest: number | undefined;
  for (const page of pagesOf(usage, filter, filter.before, maxRows + 1)) {
    newest ??= page[0]!.id;
    for (const row of page) {
      counted += 1;
      if (counted === maxRows) oldest = row.id;
    }
  }
  const cut = counted > maxRows;
  const rows = Math.min(counted, maxRows);

  function* records(): Generator<string> {
    yield usageCsvHeader();
    if (newest === undefined) return;
    for (const page of pagesOf(usage, filter, newest + 1, rows)) {
      // Rows the retention sweep removed meanwhile would otherwise pull older ones past the cut in.
      const kept = oldest === undefined ? page : page.filter((row) => row.id >= oldest!);
      if (kept.length > 0) yield kept.map(usageCsvLine).join('');
    }
  }

  return { rows, nextCursor: cut ? oldest! : null, body: Readable.from(records(), { objectMode: false }) };
}
