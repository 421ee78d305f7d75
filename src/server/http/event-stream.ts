import type { FastifyReply } from 'fastify';
import type { OutgoingHttpHeaders } from 'node:http';

/**
 * Takes the response over from Fastify and sends server-sent-event headers, keeping those already
 * set (x-request-id, x-gateway-deployment). Proxies are told not to buffer.
 */
export function openEventStream(reply: FastifyReply): FastifyReply['raw'] {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as OutgoingHttpHeaders),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
  });
  return raw;
}
