import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The cookie that ties a sign-in to the browser that started it (against login CSRF). */
const COOKIE = 'gatehouse_sso';

/** The browser's binding value, if it sent one. */
export function readBinding(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === COOKIE) return value.join('=') || undefined;
  }
  return undefined;
}

/**
 * The browser's binding, made when it has none, and set again each time with a fresh Max-Age: a
 * binding kept from an earlier sign-in would otherwise expire at that sign-in's deadline, in the
 * middle of this one. SameSite=Lax: the provider's redirect back is a top-level GET from another
 * site, which Lax lets through and Strict would not.
 */
export function ensureBinding(request: FastifyRequest, reply: FastifyReply, maxAgeSeconds: number): string {
  const existing = readBinding(request);
  const binding = existing && /^[A-Za-z0-9_-]{32}$/.test(existing) ? existing : randomBytes(24).toString('base64url');
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header(
    'set-cookie',
    `${COOKIE}=${binding}; Path=/sso; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`,
  );
  return binding;
}
