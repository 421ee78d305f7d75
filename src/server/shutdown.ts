import type { RunningServers } from './start.js';

/** How long closing may take once the requests still running were ended. */
const CUT_GRACE_MS = 5000;

/**
 * SIGINT/SIGTERM: stop accepting, let requests in flight finish, close the database, exit 0. Requests
 * still running after `timeoutMs`, or when a second signal comes (a second Ctrl-C), are ended: each is
 * accounted as its client leaving and the database is still closed, not abandoned mid-batch; the exit
 * status is then 1. A last deadline covers a close that hangs even so.
 */
export function stopOnSignals(servers: RunningServers, timeoutMs: number): void {
  let stopping = false;
  let cut = false;
  const cutNow = (why: string): void => {
    if (cut) return;
    cut = true;
    process.stderr.write(`gatehouse: ${why}; ending the requests still running\n`);
    servers.cutConnections();
    setTimeout(() => {
      process.stderr.write(`gatehouse: could not close within ${CUT_GRACE_MS} ms of ending requests; exiting\n`);
      process.exit(1);
    }, CUT_GRACE_MS).unref();
  };
  const stop = (signal: string): void => {
    if (stopping) {
      cutNow(`${signal} received again`);
      return;
    }
    stopping = true;
    process.stdout.write(`gatehouse: ${signal} received, finishing requests in flight\n`);
    setTimeout(() => cutNow(`requests still running after ${timeoutMs} ms`), timeoutMs).unref();
    servers.close().then(
      () => {
        process.stdout.write('gatehouse: stopped\n');
        process.exit(cut ? 1 : 0);
      },
      (error: unknown) => {
        process.stderr.write(`gatehouse: error while stopping: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
