import { useMemo } from 'react';
import { updateSearch, useLocation } from '../../../app/router.js';
import { useUsage } from '../../../api/gateway-queries.js';
import { useMinute } from '../../../lib/use-minute.js';
import { BarChart, Legend, SeriesSwatch } from '../../../components/bar-chart.js';
import { DataTable } from '../../../components/data-table.js';
import { ErrorMessage, Loading } from '../../../components/feedback.js';
import { Segmented } from '../../../components/segmented.js';
import { formatCompact, formatCost, formatInt } from '../../../lib/format.js';
import { seriesColours, toSeries, totalsByGroup, type Metric } from '../../../lib/usage-series.js';
import { choiceOf } from '../../../lib/address-choice.js';
import { UnpricedBudgetNote } from '../unpriced-budget-note.js';

const DAYS = 14;
const DAY_MS = 86_400_000;
const dayFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** The usage log counts refused requests too, unlike the tables' "admitted" today: `counted` says so. */
const REFUSED_INCLUDED = 'refused included';

const METRICS = {
  cost_usd: { label: 'Spend', format: formatCost, integer: false, counted: undefined },
  total_tokens: { label: 'Tokens', format: formatCompact, integer: true, counted: undefined },
  requests: { label: 'Requests', format: formatCompact, integer: true, counted: REFUSED_INCLUDED },
} as const satisfies Partial<Record<Metric, unknown>>;
type SpendMetric = keyof typeof METRICS;

const GROUPS = { user: 'Per user', team: 'Per team' } as const;
type SpendGroup = keyof typeof GROUPS;

/**
 * Spend, tokens or requests per UTC day over the last two weeks, per user or per team. Both choices
 * are in the address (`spend`, `measure`), as the Usage screen's are: a reload or a link keeps them.
 */
export function SpendPanel() {
  const params = new URLSearchParams(useLocation().search);
  const groupBy = choiceOf(GROUPS, params.get('spend'), 'user');
  const metric = choiceOf(METRICS, params.get('measure'), 'cost_usd');
  const setGroupBy = (value: SpendGroup): void => updateSearch({ spend: value === 'user' ? undefined : value });
  const setMetric = (value: SpendMetric): void => updateSearch({ measure: value === 'cost_usd' ? undefined : value });
  // From the start of the UTC day two weeks back, so each bar is a whole day (as the budgets count).
  // It moves on at midnight UTC while the screen stays open.
  const minute = useMinute();
  const since = new Date((Math.floor(minute / DAY_MS) - (DAYS - 1)) * DAY_MS).toISOString();
  const usage = useUsage({ group_by: groupBy, bucket: 'day', since }, DAYS * DAY_MS);
  const series = useMemo(() => (usage.data ? toSeries(usage.data, metric) : undefined), [usage.data, metric]);
  const rows = useMemo(() => (usage.data ? totalsByGroup(usage.data) : []), [usage.data]);
  const colours = useMemo(() => (usage.data ? seriesColours(usage.data) : new Map<string, number>()), [usage.data]);
  const { label, format, integer, counted } = METRICS[metric];
  return (
    <section className="panel" data-testid="spend-panel">
      <div className="panel-header">
        <h2 className="panel-title">
          {label} per day{counted ? ` (${counted})` : ''}, last {DAYS} days (UTC)
        </h2>
        <span className="chip-row">
          <Segmented
            label="Spend of"
            value={groupBy}
            onChange={setGroupBy}
            options={(Object.keys(GROUPS) as SpendGroup[]).map((value) => ({ value, label: GROUPS[value] }))}
          />
          <Segmented
            label="Measure"
            value={metric}
            onChange={setMetric}
            options={(Object.keys(METRICS) as SpendMetric[]).map((value) => ({ value, label: METRICS[value].label }))}
          />
        </span>
      </div>
      {usage.isPending ? (
        <Loading />
      ) : usage.isError ? (
        <ErrorMessage
          error={usage.error}
          title="Could not load spend"
          onRetry={() => void usage.refetch()}
          retrying={usage.isFetching}
        />
      ) : (
        <>
          <BarChart
            data={series!}
            integer={integer}
            format={(value) => format(value)}
            formatTime={(ms) => dayFormat.format(ms)}
            label={`${label} per day per ${groupBy}${counted ? ` (${counted})` : ''}`}
          />
          <Legend data={series!} />
          {metric === 'cost_usd' && (
            <UnpricedBudgetNote models={null} notCounting="the spend shown does not count" className="field-hint" />
          )}
          <DataTable
            label={`${label} per ${groupBy}`}
            testId="spend-table"
            rows={rows}
            rowKey={(row) => row.key}
            columns={[
              {
                header: groupBy === 'user' ? 'User' : 'Team',
                cell: (row) => (
                  <span className="cell-title">
                    <SeriesSwatch colour={colours.get(row.key)!} />
                    <span className="mono">{row.label}</span>
                  </span>
                ),
              },
              { header: `Requests (${REFUSED_INCLUDED})`, align: 'right', cell: (row) => formatInt(row.requests) },
              { header: 'Tokens', align: 'right', cell: (row) => formatInt(row.tokens) },
              { header: 'Cost', align: 'right', cell: (row) => formatCost(row.cost) },
            ]}
          />
        </>
      )}
    </section>
  );
}
