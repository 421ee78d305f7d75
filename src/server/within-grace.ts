/**
 * What `work` settled to, or `'late'` once `graceMs` passed first: for closing things that may hang
 * (a pool with a long stream, a collector that does not answer) without holding a shutdown. A
 * rejection is the error itself, never thrown; the timer is cleared either way.
 */
export async function withinGrace<T>(
  work: Promise<T>,
  graceMs: number,
): Promise<{ value: T } | { error: unknown } | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), graceMs);
  });
  const settled = work.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}
