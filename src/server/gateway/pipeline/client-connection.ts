import { EventEmitter } from 'node:events';
import type { FastifyReply } from 'fastify';
import type { EmitterSignal } from '../providers/types.js';
import type { GatewayServices } from './gateway-services.js';
import { CLIENT_CLOSED_REQUEST, type RequestContext } from './request-context.js';
import { finishRequest } from './stages/finish.js';

/**
 * An abort signal that fires when the client disconnects before the answer is sent, so the upstream
 * call is cancelled. An EventEmitter (undici takes one) rather than an AbortController, which costs
 * ten times more per request; a class with one bound listener, since closures per request cost more.
 */
export class ClientWatch extends EventEmitter implements EmitterSignal {
  aborted = false;
  private readonly raw: FastifyReply['raw'];

  constructor(reply: FastifyReply) {
    super();
    this.raw = reply.raw;
    this.onClose = this.onClose.bind(this);
    this.raw.on('close', this.onClose);
  }

  /** Stops watching (the answer is about to be written, or a stream takes over). */
  release(): void {
    this.raw.off('close', this.onClose);
  }

  /** Cancels the upstream call (once). */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }

  private onClose(): void {
    if (!this.raw.writableFinished) this.abort();
  }
}

/** Watches the client's connection so a disconnect aborts the upstream call. */
export function watchClient(reply: FastifyReply): ClientWatch {
  return new ClientWatch(reply);
}

/** Accounts a request whose client left before the answer (499); nothing can be sent any more. */
export function finishClientGone(ctx: RequestContext, reply: FastifyReply, services: GatewayServices): FastifyReply {
  ctx.statusOverride = CLIENT_CLOSED_REQUEST;
  ctx.errorType = 'client_closed';
  if (!reply.sent) reply.hijack();
  finishRequest(ctx, CLIENT_CLOSED_REQUEST, services);
  return reply;
}
