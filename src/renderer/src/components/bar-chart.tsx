import { useState } from 'react';
import { axisLabelRoom } from '../lib/chart-layout.js';
import { bucketTotals, niceScale, type SeriesSet } from '../lib/usage-series.js';
import { useElementWidth } from '../lib/use-element-width.js';

const HEIGHT = 180;
const PAD = { top: 8, right: 8, bottom: 22 };

/**
 * Stacked bars over time, one colour per series, with a hover read-out of the bucket. Drawn as
 * SVG to the container's width (no chart library: the app ships offline and small).
 */
export function BarChart({
  data,
  format,
  formatTime,
  label,
  integer = false,
}: {
  readonly data: SeriesSet;
  readonly format: (value: number) => string;
  readonly formatTime: (ms: number) => string;
  readonly label: string;
  readonly integer?: boolean;
}) {
  const [ref, width] = useElementWidth<HTMLDivElement>();
  const [hover, setHover] = useState<number>();
  const count = data.buckets.length;
  const stacks = bucketTotals(data);
  const { max, step } = niceScale(Math.max(0, ...stacks), integer);
  const ticks = Array.from({ length: Math.round(max / step) + 1 }, (_, index) => index * step);
  const tickLabels = ticks.map((tick) => format(tick));
  const left = axisLabelRoom(tickLabels);
  const plotWidth = Math.max(1, width - left - PAD.right);
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / count;
  const barWidth = Math.max(1, slot * 0.72);
  const y = (value: number): number => PAD.top + plotHeight - (value / max) * plotHeight;
  const labelEvery = Math.max(1, Math.ceil(count / Math.max(2, Math.floor(plotWidth / 90))));

  return (
    <div className="chart" ref={ref}>
      <svg width={width} height={HEIGHT} role="img" aria-label={label} onMouseLeave={() => setHover(undefined)}>
        {ticks.map((tick, index) => (
          <g key={tick}>
            <line className="chart-grid" x1={left} x2={width - PAD.right} y1={y(tick)} y2={y(tick)} />
            <text className="chart-axis" x={left - 6} y={y(tick) + 4} textAnchor="end">
              {tickLabels[index]}
            </text>
          </g>
        ))}
        {data.buckets.map((bucket, index) => {
          let base = 0;
          const x = left + index * slot + (slot - barWidth) / 2;
          return (
            <g key={bucket} onMouseEnter={() => setHover(index)}>
              <rect className="chart-hit" x={left + index * slot} y={PAD.top} width={slot} height={plotHeight} />
              {data.series.map((series) => {
                const value = series.values[index] ?? 0;
                if (value <= 0) return null;
                const top = y(base + value);
                const rect = (
                  <rect
                    key={series.key}
                    className={`chart-bar series-${series.colour}`}
                    x={x}
                    y={top}
                    width={barWidth}
                    height={Math.max(1, y(base) - top)}
                    rx={1}
                  />
                );
                base += value;
                return rect;
              })}
              {index % labelEvery === 0 && (
                <text className="chart-axis" x={x + barWidth / 2} y={HEIGHT - 6} textAnchor="middle">
                  {formatTime(bucket)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      {hover !== undefined && (
        <div
          className="chart-tooltip"
          style={{ left: Math.min(width - 180, Math.max(0, left + hover * slot + slot / 2 - 90)) }}
        >
          <div className="chart-tooltip-title">{formatTime(data.buckets[hover]!)}</div>
          {data.series.map((series) => (
            <div key={series.key} className="chart-tooltip-row">
              <SeriesSwatch colour={series.colour} />
              <span className="truncate">{series.label}</span>
              <span className="mono">{format(series.values[hover] ?? 0)}</span>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

/** A series' colour, as a small square (decorative: the series is always named next to it). */
export function SeriesSwatch({ colour }: { readonly colour: number }) {
  return <span className={`legend-swatch series-${colour}`} aria-hidden="true" data-colour={colour} />;
}

/** The colour key of a chart's series, each name on one line (cut short when long, whole in its tooltip). */
export function Legend({ data }: { readonly data: SeriesSet }) {
  return (
    <div className="legend">
      {data.series.map((series) => (
        // A long name is cut short on one line; the whole of it is the tooltip.
        <span key={series.key} className="legend-item" data-series={series.key} title={series.label}>
          <SeriesSwatch colour={series.colour} />
          <span className="mono truncate">{series.label}</span>
        </span>
      ))}
    </div>
  );
}
