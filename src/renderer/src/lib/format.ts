const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const clock = new Intl.DateTimeFormat(undefined, {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});
const integer = new Intl.NumberFormat();
const compactNumber = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "3 minutes ago", "yesterday", "just now". */
export function timeAgo(iso: string, now: number = Date.now()): string {
  const seconds = (new Date(iso).getTime() - now) / 1000;
  if (!Number.isFinite(seconds)) return iso;
  for (const [index, [unit, size]] of UNITS.entries()) {
    // Compared at the next unit's precision: 59 min 59 s is "1 hour", not "60 minutes"; halves round
    // away from now, in the past as in the future.
    const finer = UNITS[index + 1]?.[1] ?? 1;
    if (Math.abs(seconds) >= size - finer / 2)
      return relative.format(Math.sign(seconds) * Math.round(Math.abs(seconds) / size), unit);
  }
  return 'just now';
}

/** A full local date and time, for tooltips and detail headers. */
export function fullTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

/** HH:MM:SS, for the traffic table. */
export function clockTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : clock.format(date);
}

/** 12,345. */
export function formatInt(value: number): string {
  return integer.format(value);
}

/** 12.3K. */
export function formatCompact(value: number): string {
  return compactNumber.format(value);
}

/** $0.0042, with more digits for tiny amounts. */
export function formatCost(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.01) return `$${usd.toPrecision(2)}`;
  return `$${usd.toFixed(2)}`;
}

/** 1.2 kB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** 840 ms, 1.2 s. */
export function formatLatency(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** "1 key", "3 keys". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatInt(count)} ${count === 1 ? one : many}`;
}

/** UTF-8 size of a string. */
export function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}
