/** The axis labels' font size in px (`.chart-axis` in gateway.css). */
export const AXIS_FONT_PX = 10;

// Wider than any digit, `$` or `.` of the sans-serif fonts the app falls back to (DejaVu Sans's
// digits are 0.64 em): an estimate that errs wide never cuts a label off.
const CHAR_EM = 0.68;
// Between a label's end and the plot, and before its start.
const GAP_PX = 6;

/**
 * The room the value axis needs on the left: its widest label (`$0.000040` is twice as wide as
 * `40`), at least the chart's usual 48 px so charts side by side mostly line up.
 */
export function axisLabelRoom(labels: readonly string[]): number {
  const longest = labels.reduce((most, label) => Math.max(most, label.length), 0);
  return Math.max(48, Math.ceil(longest * CHAR_EM * AXIS_FONT_PX) + 2 * GAP_PX);
}
