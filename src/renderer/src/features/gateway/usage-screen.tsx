import { useMemo, useState, type ReactNode } from 'react';
import type { UsageResponse } from '../../../../shared/gateway-api.js';
import { updateSearch, useLocation } from '../../app/router.js';
import { useModelSettings, useUsage } from '../../api/gateway-queries.js';
import { BarChart, Legend, SeriesSwatch } from '../../components/bar-chart.js';
import { Button } from '../../components/button.js';
import { ChartTable } from '../../components/chart-table.js';
import { DataTable } from '../../components/data-table.js';
import { EmptyState, ErrorMessage, Loading } from '../../components/feedback.js';
import { ChartIcon } from '../../components/icons.js';
import { PageBody, PageHeader } from '../../components/page.js';
import { Segmented } from '../../components/segmented.js';
import { formatCompact, formatCost, formatInt, formatLatency } from '../../lib/format.js';
import { choiceOf } from '../../lib/address-choice.js';
import { useMinute } from '../../lib/use-minute.js';
import { tokenParts } from '../../lib/token-details.js';
import { seriesColours, toSeries, totalsByGroup, type Metric } from '../../lib/usage-series.js';
import { UnpricedBudgetNote } from './unpriced-budget-note.js';
import { UsageTotalsDownload, useUsageRowsDownload } from './usage-downloads.js';
import { costView, UNPRICED_COST_TITLE } from './unpriced-models.js';

const RANGES = {
  '1h': { label: 'Last hour', ms: 3_600_000, bucket: 'minute' },
  '24h': { label: '24 hours', ms: 86_400_000, bucket: 'hour' },
  '7d': { label: '7 days', ms: 7 * 86_400_000, bucket: 'hour' },
  '30d': { label: '30 days', ms: 30 * 86_400_000, bucket: 'day' },
} as const;
type Range = keyof typeof RANGES;
const DEFAULT_RANGE: Range = '24h';

/** Why answered requests are missing from the figures: their rows wait in the server's memory. */
function pendingSentence(rows: number, reason: UsageResponse['pending_reason']): string {
  const why =
    reason === 'unwritable'
      ? 'the database cannot be written (a full disk or a read-only file); they are written once it can be'
      : "another program holds the database's write lock; they are written once it lets go";
  return `${rows} answered request${rows === 1 ? ' is' : 's are'} not in these figures yet: ${why}.`;
}

/** What the usage is split by, as the table heads it. */
const GROUPS = {
  model: 'Model',
  key: 'Key',
  user: 'User',
  team: 'Team',
  deployment: 'Deployment',
  provider: 'Provider',
} as const;
type GroupBy = keyof typeof GROUPS;
const DEFAULT_GROUP: GroupBy = 'model';

const dayOfMonth = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', hour12: false });

/** How a bucket's start reads on the charts' axis and in their tables. */
const timeFormat: Readonly<Record<UsageResponse['bucket'], (ms: number) => string>> = {
  minute: (ms) => clock.format(ms),
  // The day, then the hour as a time ("Nov 25 09:00"): "Nov 25, 09" reads like a year.
  hour: (ms) => `${dayOfMonth.format(ms)} ${clock.format(ms)}`,
  day: (ms) => dayOfMonth.format(ms),
};

/** "40.0%". */
const percentOf = (part: number, whole: number): string => `${((part / whole) * 100).toFixed(1)}%`;

function Stat({
  label,
  value,
  detail,
}: {
  readonly label: string;
  readonly value: string;
  readonly detail?: ReactNode;
}) {
  return (
    <div className="stat">
      <div className="stat-label">{label}</div>
      <div className="stat-value">{value}</div>
      {detail && <div className="stat-detail">{detail}</div>}
    </div>
  );
}

function ChartPanel({
  usage,
  metric,
  title,
  format,
  asTable,
  integer = false,
}: {
  readonly usage: UsageResponse;
  readonly metric: Metric;
  readonly title: string;
  readonly format: (value: number) => string;
  readonly asTable: boolean;
  readonly integer?: boolean;
}) {
  const data = useMemo(() => toSeries(usage, metric), [usage, metric]);
  const formatTime = timeFormat[usage.bucket];
  return (
    <section className="panel chart-panel" data-testid={`chart-${metric}`}>
      <h2 className="panel-title">{title}</h2>
      {asTable ? (
        <ChartTable data={data} format={format} formatTime={formatTime} label={`${title} over time`} />
      ) : (
        <>
          <BarChart
            data={data}
            integer={integer}
            format={format}
            formatTime={formatTime}
            label={`${title} over time`}
          />
          <Legend data={data} />
        </>
      )}
    </section>
  );
}

const AS_TABLE_KEY = 'gatehouse.usage-as-table';

/** Whether the charts show as tables: kept for the tab (sessionStorage), like the sign-in's credentials. */
function useChartsAsTables(): readonly [boolean, (asTable: boolean) => void] {
  const [asTable, setAsTable] = useState(() => sessionStorage.getItem(AS_TABLE_KEY) === 'true');
  const choose = (value: boolean): void => {
    if (value) sessionStorage.setItem(AS_TABLE_KEY, 'true');
    else sessionStorage.removeItem(AS_TABLE_KEY);
    setAsTable(value);
  };
  return [asTable, choose];
}

/**
 * Requests, tokens and cost over time per model, key, user, team, deployment or provider. The grouping and the range are
 * in the address (`group`, `range`), so a reload, Back and a shared link show the same charts.
 */
export function UsageScreen() {
  const params = new URLSearchParams(useLocation().search);
  const range = choiceOf(RANGES, params.get('range'), DEFAULT_RANGE);
  const groupBy = choiceOf(GROUPS, params.get('group'), DEFAULT_GROUP);
  const setRange = (value: Range): void => updateSearch({ range: value === DEFAULT_RANGE ? undefined : value });
  const setGroupBy = (value: GroupBy): void => updateSearch({ group: value === DEFAULT_GROUP ? undefined : value });
  const { bucket, ms } = RANGES[range];
  // Whole minutes, moving on each one: the window stays "the last hour" however long the screen is open.
  const minute = useMinute();
  const since = new Date(minute - ms).toISOString();
  const usage = useUsage({ group_by: groupBy, bucket, since }, ms);
  const totals = usage.data?.totals;
  const rows = useMemo(() => (usage.data ? totalsByGroup(usage.data) : []), [usage.data]);
  const colours = useMemo(() => (usage.data ? seriesColours(usage.data) : new Map<string, number>()), [usage.data]);
  const [asTable, setAsTable] = useChartsAsTables();
  const prices = useModelSettings().data;
  const rowsDownload = useUsageRowsDownload(since);

  return (
    <>
      <PageHeader
        title="Usage"
        subtitle="What the gateway served, per time bucket. Cost uses the pricing in the configuration."
        actions={
          <>
            <Segmented
              label="Group by"
              value={groupBy}
              onChange={setGroupBy}
              options={(Object.keys(GROUPS) as GroupBy[]).map((value) => ({
                value,
                label: `Per ${GROUPS[value].toLowerCase()}`,
              }))}
            />
            <Segmented
              label="Range"
              value={range}
              onChange={setRange}
              options={(Object.keys(RANGES) as Range[]).map((value) => ({ value, label: RANGES[value].label }))}
            />
          </>
        }
      />
      <PageBody>
        {usage.isPending ? (
          <Loading />
        ) : usage.isError ? (
          <ErrorMessage
            error={usage.error}
            title="Could not load usage"
            onRetry={() => void usage.refetch()}
            retrying={usage.isFetching}
          />
        ) : (
          <>
            {usage.data.pending_rows ? (
              <div className="notice notice-warning" role="status" data-testid="usage-pending">
                {pendingSentence(usage.data.pending_rows, usage.data.pending_reason)}
              </div>
            ) : null}
            <div className="stats" data-testid="usage-totals">
              <Stat label="Requests" value={formatInt(totals!.requests)} />
              <Stat
                label="Tokens"
                value={formatCompact(totals!.total_tokens)}
                detail={tokenParts(totals!, formatCompact, [' in', ' out']).join(' · ')}
              />
              <Stat
                label="Cost"
                value={formatCost(totals!.cost_usd)}
                detail={
                  prices?.unpriced_models.length ? (
                    <UnpricedBudgetNote models={null} notCounting="this cost does not count" className="muted" />
                  ) : undefined
                }
              />
              <Stat
                label="Errors"
                value={formatInt(totals!.errors)}
                detail={
                  totals!.requests
                    ? `${percentOf(totals!.errors, totals!.requests)} of requests${totals!.refused ? ', refusals included' : ''}`
                    : undefined
                }
              />
              {/* Apart from the errors they are counted in: a budget doing its job is not a failure to chase. */}
              {totals!.refused !== undefined && (
                <Stat
                  label="Refused by limits"
                  value={formatInt(totals!.refused)}
                  detail={
                    totals!.requests
                      ? `${percentOf(totals!.refused, totals!.requests)} of requests: rate limits and budgets`
                      : undefined
                  }
                />
              )}
              <Stat
                label="Avg latency"
                value={totals!.avg_latency_ms === null ? '—' : formatLatency(totals!.avg_latency_ms)}
              />
            </div>
            {usage.data.data.length === 0 ? (
              <EmptyState icon={<ChartIcon size={28} />} title={`No usage in the ${RANGES[range].label.toLowerCase()}`}>
                Requests through the gateway are counted here per model, key, user, team, deployment and provider. Issue
                a key and send a request; it appears within seconds.
              </EmptyState>
            ) : (
              <>
                <div className="chart-view-bar">
                  <div className="row-actions">
                    <Button size="sm" aria-pressed={asTable} onClick={() => setAsTable(!asTable)}>
                      Show as table
                    </Button>
                    {rowsDownload.button}
                  </div>
                </div>
                {rowsDownload.notice}
                <div className="chart-grid-layout">
                  <ChartPanel
                    usage={usage.data}
                    metric="requests"
                    integer
                    title="Requests"
                    format={(value) => formatCompact(value)}
                    asTable={asTable}
                  />
                  <ChartPanel
                    usage={usage.data}
                    metric="total_tokens"
                    integer
                    title="Tokens"
                    format={(value) => formatCompact(value)}
                    asTable={asTable}
                  />
                  <ChartPanel
                    usage={usage.data}
                    metric="cost_usd"
                    title="Cost"
                    format={(value) => formatCost(value)}
                    asTable={asTable}
                  />
                  <ChartPanel
                    usage={usage.data}
                    metric="errors"
                    integer
                    title="Errors"
                    format={(value) => formatCompact(value)}
                    asTable={asTable}
                  />
                </div>
                <section className="panel">
                  <div className="panel-header">
                    <h2 className="panel-title">Per {GROUPS[groupBy].toLowerCase()}</h2>
                    <UsageTotalsDownload groupHeader={GROUPS[groupBy]} rows={rows} since={since} />
                  </div>
                  <DataTable
                    label="Usage totals"
                    rows={rows}
                    rowKey={(row) => row.key}
                    columns={[
                      {
                        header: GROUPS[groupBy],
                        cell: (row) => (
                          <span className="cell-title">
                            <SeriesSwatch colour={colours.get(row.key)!} />
                            <span className="mono">{row.label}</span>
                          </span>
                        ),
                      },
                      { header: 'Requests', align: 'right', cell: (row) => formatInt(row.requests) },
                      { header: 'Tokens', align: 'right', cell: (row) => formatInt(row.tokens) },
                      {
                        header: 'Cost',
                        align: 'right',
                        // Per model it can tell an unpriced model from a free one; other groups mix models.
                        cell: (row) => {
                          if (groupBy !== 'model') return formatCost(row.cost);
                          const cost = costView(row.cost, row.key, row.tokens, prices);
                          return cost.unpriced ? (
                            <span className="muted" title={UNPRICED_COST_TITLE} data-testid="usage-cost-unpriced">
                              {cost.text}
                            </span>
                          ) : (
                            (cost.text ?? formatCost(row.cost))
                          );
                        },
                      },
                      { header: 'Errors', align: 'right', cell: (row) => formatInt(row.errors) },
                      {
                        // The gateway's response cache, not the provider's prompt cache (Tokens above).
                        header: 'Cache hits',
                        align: 'right',
                        priority: 'low',
                        cell: (row) => formatInt(row.cacheHits),
                      },
                      {
                        header: 'Saved',
                        align: 'right',
                        priority: 'low',
                        cell: (row) => (row.savedCost > 0 ? formatCost(row.savedCost) : '—'),
                      },
                      {
                        header: 'Avg latency',
                        align: 'right',
                        cell: (row) => (row.latency === null ? '—' : formatLatency(row.latency)),
                      },
                    ]}
                  />
                </section>
              </>
            )}
          </>
        )}
      </PageBody>
    </>
  );
}
