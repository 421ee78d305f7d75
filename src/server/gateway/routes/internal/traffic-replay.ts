import type { ServerResponse } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { TrafficEvent } from '../../../../shared/gateway-api.js';
import type { TrafficLog } from '../../traffic/traffic-log.js';
import { roomToWrite } from '../../../http/room-to-write.js';

/** Events decoded at a time while replaying: a page is read from the buffer, then written under backpressure. */
const REPLAY_PAGE = 20;

/**
 * Writes the buffered events after `after`, oldest first, a page at a time and at the pace the client
 * reads them (without their bodies for a client that asked so): a whole buffer (a thousand events with their bodies is some 100 MB) is never queued in
 * memory at once, and other requests are served between pages. Calls `caughtUp` in the same turn as
 * it finds nothing newer left, so the live subscription it starts misses no event and repeats none.
 */
export async function replayTraffic(
  raw: ServerResponse,
  traffic: TrafficLog,
  after: number,
  bodies: boolean,
  frame: (event: TrafficEvent) => string,
  caughtUp: () => void,
): Promise<void> {
  let cursor = after;
  for (;;) {
    if (raw.destroyed) return;
    const page = traffic.listAfter(cursor, REPLAY_PAGE, bodies);
    if (page.events.length === 0) return caughtUp();
    for (const event of page.events.reverse()) {
      cursor = event.seq;
      if (!raw.write(frame(event))) await roomToWrite(raw);
      if (raw.destroyed) return;
    }
    await nextTurn();
  }
}
