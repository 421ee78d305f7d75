import type { CacheStats } from '../../../../shared/cache-api.js';
import { formatInt } from '../../lib/format.js';

/** The requests whose headers changed what the cache did, and those that shared another's provider call. */
const REQUEST_COUNTS = [
  {
    field: 'bypasses',
    label: 'Bypassed',
    hint: 'Requests sent with Cache-Control: no-store or x-gatehouse-cache: off, which turned the cache off for them.',
  },
  {
    field: 'refreshes',
    label: 'Refreshed',
    hint: 'Requests sent with Cache-Control: no-cache or x-gatehouse-cache: refresh: the lookup was skipped and the fresh answer replaced the kept one.',
  },
  {
    field: 'collapsed',
    label: 'Collapsed',
    hint: 'Identical concurrent requests answered with the answer of one provider call (counted in hits too).',
  },
] as const satisfies readonly { field: keyof CacheStats; label: string; hint: string }[];

/** Items of the stats' list: each count with what it counts, in the docs' words, shown under it. */
export function CacheRequestCounts({ stats }: { readonly stats: CacheStats }) {
  return (
    <>
      {REQUEST_COUNTS.map(({ field, label, hint }) => (
        <div className="detail-item" key={field}>
          <dt>{label}</dt>
          <dd data-testid={`cache-${field}`}>{formatInt(stats[field])}</dd>
          <dd className="cache-count-hint">{hint}</dd>
        </div>
      ))}
    </>
  );
}
