import type { FastifyPluginAsync } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  trafficEventParamsSchema,
  trafficEventSchema,
  trafficListSchema,
  trafficQuerySchema,
  trafficStreamQuerySchema,
  type TrafficEvent,
  type TrafficGap,
} from '../../../../shared/gateway-api.js';
import { assertNever } from '../../../../shared/assert-never.js';
import { openEventStream } from '../../../http/event-stream.js';
import { notFound } from '../../../http/errors.js';
import type { GatewayBusMessage } from '../../traffic/event-bus.js';
import type { TrafficLog } from '../../traffic/traffic-log.js';
import { replayTraffic } from './traffic-replay.js';

const HEARTBEAT_MS = 15_000;
/** A subscriber this far behind is cut off: it reconnects with Last-Event-ID instead of costing memory. */
const MAX_PENDING_BYTES = 4 * 1024 * 1024;

function trafficFrame(event: TrafficEvent): string {
  return `id: ${event.seq}\nevent: traffic\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * Frames for a resumed stream: a `gap` event before the first event that follows requests the buffer
 * dropped (before the client reconnected, or while it read the replay slowly), saying how many.
 */
function resumedFrames(traffic: TrafficLog, resume: number): (event: TrafficEvent) => string {
  let last = resume;
  return (event) => {
    const missed = traffic.droppedBetween(last, event.seq);
    const frame: TrafficGap = { after: last, next_seq: event.seq, missed };
    const gap = missed === 0 ? '' : `event: gap\ndata: ${JSON.stringify(frame)}\n\n`;
    last = event.seq;
    return gap + trafficFrame(event);
  };
}

function frameOf(message: GatewayBusMessage, bodies: boolean): string {
  switch (message.kind) {
    case 'traffic':
      return trafficFrame(bodies ? message.event : message.leanEvent);
    case 'invalidate':
      return `event: invalidate\ndata: ${JSON.stringify(message.message)}\n\n`;
    default:
      return assertNever(message, 'bus message');
  }
}

/**
 * `GET /internal/traffic` (recent requests, newest first), `GET /internal/traffic/<seq>` (one of them
 * with its bodies) and `GET /internal/traffic/stream` (SSE: `traffic` events with `id` = seq so
 * `Last-Event-ID` resumes, `gap` events where a resumed stream skips requests the buffer dropped,
 * `invalidate` events for admin changes; `bodies=false` leaves the bodies out of the traffic events).
 */
export const trafficRoutes: FastifyPluginAsync = async (app) => {
  const services = app.gateway;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const open = new Set<ServerResponse>();
  // Streams never finish on their own; closing the server must not wait for them.
  app.addHook('preClose', (done) => {
    for (const raw of open) raw.end();
    done();
  });

  typed.get(
    '/traffic',
    { schema: { querystring: trafficQuerySchema, response: { 200: trafficListSchema } } },
    async (request) => {
      const { limit, after, bodies } = request.query;
      const page =
        after === undefined
          ? services.traffic.list(limit, bodies === 'true')
          : services.traffic.listAfter(after, limit, bodies === 'true');
      // Newest first: the page's oldest event is the first one after `after` still held.
      const first = page.events[page.events.length - 1];
      return {
        data: page.events,
        has_more: page.more,
        capacity: services.traffic.capacity,
        last_seq: services.traffic.lastSeq,
        missed: after === undefined || first === undefined ? 0 : services.traffic.droppedBetween(after, first.seq),
      };
    },
  );

  typed.get(
    '/traffic/:seq',
    { schema: { params: trafficEventParamsSchema, response: { 200: trafficEventSchema } } },
    async (request) => {
      const { seq } = request.params;
      const event = services.traffic.find(seq);
      if (event === undefined)
        throw notFound(
          `traffic request ${seq} is not held: the gateway keeps only its newest ${services.traffic.capacity} requests (gateway.traffic_buffer)`,
        );
      return event;
    },
  );

  typed.get('/traffic/stream', { schema: { querystring: trafficStreamQuerySchema } }, (request, reply) => {
    const header = request.headers['last-event-id'];
    const resume = typeof header === 'string' && /^\d+$/.test(header) ? Number(header) : request.query.after;
    const bodies = request.query.bodies === 'true';
    const raw = openEventStream(reply);
    raw.write('retry: 2000\n\n');
    open.add(raw);
    // While the buffer is replayed, traffic events reach the client through the replay itself;
    // invalidations (never buffered) wait for it and follow.
    let replaying = resume !== undefined;
    const held: string[] = [];
    const unsubscribe = services.bus.subscribe((message) => {
      if (replaying) {
        if (message.kind === 'invalidate') held.push(frameOf(message, bodies));
        return;
      }
      if (raw.writableLength > MAX_PENDING_BYTES) {
        raw.destroy();
        return;
      }
      raw.write(frameOf(message, bodies));
    });
    const heartbeat = setInterval(() => raw.write(': ping\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    raw.on('close', () => {
      open.delete(raw);
      unsubscribe();
      clearInterval(heartbeat);
    });
    if (resume === undefined) return;
    void replayTraffic(raw, services.traffic, resume, bodies, resumedFrames(services.traffic, resume), () => {
      replaying = false;
      for (const frame of held.splice(0)) raw.write(frame);
    }).catch((error: unknown) => {
      app.log.error({ err: error }, 'traffic stream: replaying the buffer failed');
      raw.destroy();
    });
  });
};
