import type { CacheStats, NotKeptReason } from '../../../../shared/cache-api.js';
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

/** Why answers were not kept, in the order a user would look for them. */
const NOT_KEPT = [
  { reason: 'too_large', label: 'too large' },
  { reason: 'incomplete', label: 'incomplete' },
  { reason: 'client_left', label: 'client left' },
  { reason: 'error', label: 'failed' },
] as const satisfies readonly { reason: NotKeptReason; label: string }[];

/** The answers the cache did not keep, by why: each is a miss for the next identical request. */
export function CacheNotKeptCount({ stats }: { readonly stats: CacheStats }) {
  const total = NOT_KEPT.reduce((sum, { reason }) => sum + stats.not_kept[reason], 0);
  return (
    <div className="detail-item">
      <dt>Not kept</dt>
      <dd data-testid="cache-not-kept">
        {total === 0
          ? '0'
          : NOT_KEPT.filter(({ reason }) => stats.not_kept[reason] > 0)
              .map(({ reason, label }) => `${formatInt(stats.not_kept[reason])} ${label}`)
              .join(', ')}
      </dd>
      <dd className="cache-count-hint">
        Answers the cache did not keep: larger than the largest answer kept, incomplete (a Response not completed, a
        filtered or refused answer), whose client left before the end, or whose provider call failed.
      </dd>
    </div>
  );
}
