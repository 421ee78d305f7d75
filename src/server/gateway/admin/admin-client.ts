import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { badRequest } from '../../http/errors.js';

/** Where an admin change came from, recorded with its audit event: everyone shares the master key. */
export interface AdminClient {
  readonly address: string;
  readonly userAgent: string | null;
  /** Who the caller says made the change (`x-gatehouse-changed-by`), as LiteLLM's `litellm-changed-by`. */
  readonly changedBy: string | null;
}

export const CHANGED_BY_HEADER = 'x-gatehouse-changed-by';
const CHANGED_BY_MAX = 200;
/** User agents are free text of any length; the audit trail keeps enough to tell clients apart. */
const USER_AGENT_MAX = 300;
/** Control characters, unassigned or private code points and bytes that were no UTF-8 (U+FFFD). */
const UNPRINTABLE = /[\p{C}\uFFFD]/u;

const current = new AsyncLocalStorage<AdminClient>();

/** The client of the admin request being handled, or undefined outside one (inference, sign-in). */
export const currentAdminClient = (): AdminClient | undefined => current.getStore();

/**
 * Runs every route handler of `app` with its request's client as the current one, so the audit
 * trail records it wherever a service writes an event, without each route and service passing it on.
 */
export function trackAdminClients(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function (this: FastifyInstance, request, reply) {
      const client = adminClientOf(request);
      return current.run(client, () => handler.call(this, request, reply));
    } as RouteHandlerMethod;
  });
}

/** The request's address, user agent and declared author; a malformed author header is refused. */
export function adminClientOf(request: FastifyRequest): AdminClient {
  const agent = request.headers['user-agent'];
  return {
    address: request.ip,
    userAgent: agent === undefined || agent === '' ? null : agent.slice(0, USER_AGENT_MAX),
    changedBy: changedByOf(request.headers[CHANGED_BY_HEADER]),
  };
}

function changedByOf(sent: string | string[] | undefined): string | null {
  if (sent === undefined) return null;
  // Node reads header bytes as Latin-1: decoded again as UTF-8, a name such as "José" reads as sent.
  const value = Buffer.from(Array.isArray(sent) ? sent.join(', ') : sent, 'latin1')
    .toString('utf8')
    .trim();
  if (value === '' || value.length > CHANGED_BY_MAX || UNPRINTABLE.test(value))
    throw badRequest(
      `header ${CHANGED_BY_HEADER} must be 1 to ${CHANGED_BY_MAX} printable UTF-8 characters naming who makes the change`,
      CHANGED_BY_HEADER,
    );
  return value;
}
