import { bucketTotals, type SeriesSet } from '../lib/usage-series.js';
import { SeriesSwatch } from './bar-chart.js';

/**
 * A chart's figures as a table, for those who cannot see or hover the bars: one row per period,
 * one column per series with the values the chart draws, and the period's total. A long table
 * scrolls in its own frame, which takes focus so the keyboard can scroll it.
 */
export function ChartTable({
  data,
  format,
  formatTime,
  label,
}: {
  readonly data: SeriesSet;
  readonly format: (value: number) => string;
  readonly formatTime: (ms: number) => string;
  readonly label: string;
}) {
  const totals = bucketTotals(data);
  return (
    <div className="data-table-scroll chart-table-scroll" role="region" aria-label={label} tabIndex={0}>
      <table className="data-table chart-table">
        <caption className="visually-hidden">{label}</caption>
        <thead>
          <tr>
            <th scope="col">Period</th>
            {data.series.map((series) => (
              <th key={series.key} scope="col" className="align-right" title={series.label}>
                <span className="chart-table-series">
                  <SeriesSwatch colour={series.colour} />
                  <span className="truncate">{series.label}</span>
                </span>
              </th>
            ))}
            <th scope="col" className="align-right">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {data.buckets.map((bucket, index) => (
            <tr key={bucket}>
              <th scope="row">{formatTime(bucket)}</th>
              {data.series.map((series) => (
                <td key={series.key} className="align-right mono">
                  {format(series.values[index] ?? 0)}
                </td>
              ))}
              <td className="align-right mono">{format(totals[index]!)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
