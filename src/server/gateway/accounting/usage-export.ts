import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { UsageRow } from '../../../shared/gateway-api.js';
import { usageCsvHeader, usageCsvLine } from './usage-csv.js';
import type { UsageLogFilter, UsageRepository } from './usage.repository.js';

/**
 * Rows read per query: one page in memory at a time, whatever the export's size, and small enough that
 * reading one holds the event loop (every proxied request) only briefly.
 */
const PAGE_ROWS = 200;

/** A CSV export of the usage log, ready to send. */
export interface UsageCsvExport {
  /** The rows the file holds. */
  readonly rows: number;
  /** When the export was cut at its maximum: the `before` that exports the rest; null when it holds every match. */
  readonly nextCursor: number | null;
  /** The header record, then the rows newest first, read page by page as the client takes them. */
  readonly body: Readable;
}

/**
 * The matching rows newest first, from `before`, a page at a time, at most `max` of them and none older
 * than `oldest`. Each page waits for a turn of the event loop, so requests arriving meanwhile are
 * answered between pages; the next page is read only when the consumer asks for it.
 */
async function* pagesOf(
  usage: UsageRepository,
  filter: Omit<UsageLogFilter, 'limit'>,
  before: number,
  max: number,
  oldest: number,
): AsyncGenerator<UsageRow[]> {
  let left = max;
  let cursor = before;
  while (left > 0) {
    await nextTurn();
    const limit = Math.min(PAGE_ROWS, left);
    const page = usage.logs({ ...filter, before: cursor, limit });
    // Rows the retention sweep removed meanwhile would otherwise pull older ones past the cut in.
    const kept = page.filter((row) => row.id >= oldest);
    if (kept.length > 0) yield kept;
    if (kept.length < limit) return;
    left -= kept.length;
    cursor = kept[kept.length - 1]!.id;
  }
}

/**
 * Every row the filter matches (from its `before`, as a page of the JSON listing would start), up to
 * `maxRows`. The rows are counted first, in SQL, because the headers that say whether the file was cut
 * go out before the first row; the file then holds the rows counted, those written in between left out.
 */
export function usageCsvExport(
  usage: UsageRepository,
  filter: Omit<UsageLogFilter, 'limit'>,
  maxRows: number,
): UsageCsvExport {
  const { count, newest, oldest } = usage.countLogs(filter, maxRows);
  const cut = oldest !== null && count === maxRows && usage.logs({ ...filter, before: oldest, limit: 1 }).length > 0;

  async function* records(): AsyncGenerator<string> {
    yield usageCsvHeader();
    if (newest === null || oldest === null) return;
    for await (const page of pagesOf(usage, filter, newest + 1, count, oldest)) yield page.map(usageCsvLine).join('');
  }

  // Readable.from pulls the next record only while the client keeps up, and ends the generator when
  // the response closes early (Fastify destroys the stream): a slow or departed client stops the reads.
  return { rows: count, nextCursor: cut ? oldest : null, body: Readable.from(records(), { objectMode: false }) };
}
