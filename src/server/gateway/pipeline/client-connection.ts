import type { FastifyReply } from 'fastify';
import type { GatewayServices } from './gateway-services.js';
import { CLIENT_CLOSED_REQUEST, type RequestContext } from './request-context.js';
import { finishRequest } from './stages/finish.js';

/** An abort signal that fires when the client disconnects before the answer is sent. */
export interface ClientWatch {
  readonly controller: AbortController;
  /** Stops watching (the answer is about to be written, or a stream takes over). */
  release(): void;
}

/** Watches the client's connection so a disconnect aborts the upstream call. */
export function watchClient(reply: FastifyReply): ClientWatch {
  const controller = new AbortController();
  const raw = reply.raw;
  const onClose = (): void => {
    if (!raw.writableFinished) controller.abort();
  };
  raw.on('close', onClose);
  return { controller, release: () => raw.off('close', onClose) };
}

/** Accounts a request whose client left before the answer (499); nothing can be sent any more. */
export function finishClientGone(ctx: RequestContext, reply: FastifyReply, services: GatewayServices): FastifyReply {
  ctx.statusOverride = CLIENT_CLOSED_REQUEST;
  ctx.errorType = 'client_closed';
  if (!reply.sent) reply.hijack();
  finishRequest(ctx, CLIENT_CLOSED_REQUEST, services);
  return reply;
}
