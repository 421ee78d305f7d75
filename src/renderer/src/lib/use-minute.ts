import { useEffect, useState } from 'react';

const MINUTE_MS = 60_000;

const minuteOf = (ms: number): number => Math.floor(ms / MINUTE_MS) * MINUTE_MS;

/**
 * The current time rounded down to the minute, updated as each minute starts: a window such as "the
 * last hour" moves with it while a screen stays open, and a query keyed on it changes once a minute
 * rather than on every render.
 */
export function useMinute(): number {
  const [minute, setMinute] = useState(() => minuteOf(Date.now()));
  useEffect(() => {
    // A timer may fire a little early: the next minute is taken either way, so the clock never stalls.
    const timer = setTimeout(
      () => setMinute(Math.max(minute + MINUTE_MS, minuteOf(Date.now()))),
      minute + MINUTE_MS - Date.now(),
    );
    return () => clearTimeout(timer);
  }, [minute]);
  return minute;
}
