import type { RunningServers } from './start.js';

/** How long closing may take once the requests still running were ended. */
const CUT_GRACE_MS = 5000;

/**
 * How long the gateway's requests ended at shutdown have to send what ends them (a stream's error
 * event, a 503) before their connections are cut: a client that reads them is gone by then.
 */
const ENDING_GRACE_MS = 1000;

/** How the servers are closed: to a deadline, then with the requests still running ended. */
export interface DeadlineClose {
  /** Ends the requests still running now (a second signal, a second quit). */
  cutNow(why: string): void;
}

/**
 * Stops accepting, lets requests in flight finish, closes the database, then `exit(0)`. Requests
 * still running after `timeoutMs`, or when {@link DeadlineClose.cutNow} is called, are ended: the
 * gateway's tell their clients it is shutting down (a stream's error event in its format, a 503) and
 * are accounted as 503, then every connection still open is cut; the database is still closed, not
 * abandoned mid-batch, and the exit status is 1. A last deadline covers a close that hangs even so.
 * Shared by the headless server's signals and the desktop app's quit, which must never leave the
 * data folder held.
 */
export function closeToDeadline(
  servers: Pick<RunningServers, 'close' | 'cutConnections' | 'gateway'>,
  timeoutMs: number,
  exit: (code: number) => void,
): DeadlineClose {
  let cut = false;
  const cutNow = (why: string): void => {
    if (cut) return;
    cut = true;
    process.stderr.write(`gatehouse: ${why}; ending the requests still running\n`);
    const inFlight = servers.gateway.gateway.inFlight;
    inFlight.shutDown();
    void inFlight.settled(ENDING_GRACE_MS).then(() => servers.cutConnections());
    setTimeout(() => {
      process.stderr.write(`gatehouse: could not close within ${CUT_GRACE_MS} ms of ending requests; exiting\n`);
      exit(1);
    }, CUT_GRACE_MS).unref();
  };
  setTimeout(() => cutNow(`requests still running after ${timeoutMs} ms`), timeoutMs).unref();
  servers.close().then(
    () => {
      process.stdout.write('gatehouse: stopped\n');
      exit(cut ? 1 : 0);
    },
    (error: unknown) => {
      process.stderr.write(`gatehouse: error while stopping: ${(error as Error).message}\n`);
      exit(1);
    },
  );
  return { cutNow };
}

/**
 * SIGINT/SIGTERM/SIGHUP: the servers are closed to a deadline ({@link closeToDeadline}); a second
 * signal (a second Ctrl-C) ends the requests still running at once. Returns the same stop, for other
 * reasons to stop (see {@link stopWithParent}).
 */
export function stopOnSignals(servers: RunningServers, timeoutMs: number): (why: string) => void {
  let closing: DeadlineClose | undefined;
  const stop = (why: string): void => {
    if (closing !== undefined) {
      closing.cutNow(`${why} again`);
      return;
    }
    process.stdout.write(`gatehouse: ${why}, finishing requests in flight\n`);
    closing = closeToDeadline(servers, timeoutMs, (code) => process.exit(code));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(`${signal} received`));
  return stop;
}

/** How often the parent is looked for: a cheap property read. */
const PARENT_CHECK_MS = 500;

/**
 * Stops when the process that started this one is gone. `npm run serve` starts the server through a
 * shell: npm passes SIGTERM on to that shell, which dies of it without passing it on, and the server
 * would live on, orphaned, holding its ports and data folder. An orphan is handed to another parent,
 * which is how its leaving shows.
 */
export function stopWithParent(stop: (why: string) => void): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    stop('the process that started it ended');
  }, PARENT_CHECK_MS);
  timer.unref();
}
