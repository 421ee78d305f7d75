import { hash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The cookies that tie a sign-in to the browser that started it (against login CSRF): one per
 * sign-in, named after its state (and, for the confirmation of a hand-off to a program, after the
 * confirmation's request), holding a value the gateway chose for that sign-in alone. Cookies are not
 * isolated by port, so a page on another port of 127.0.0.1 can set one here: a value the browser
 * brings is therefore never taken as a new sign-in's binding, and a sign-in's own cookie is named by a
 * state only the provider's redirect reveals. One cookie per sign-in keeps two sign-ins in two tabs
 * of one browser apart.
 */
const PREFIX = 'gatehouse_sso_';

/**
 * Sign-in cookies a browser keeps at once. Sign-ins abandoned at the provider leave theirs until they
 * expire, and browsers cap cookies per host (some 180, shared by every port of 127.0.0.1, so other
 * local apps would lose theirs): past this many, the oldest are dropped as a new sign-in starts.
 */
const MAX_SIGN_IN_COOKIES = 8;

/** A new sign-in's binding, chosen here: 24 random bytes, base64url. */
export function newBinding(): string {
  return randomBytes(24).toString('base64url');
}

/** The cookie's name for a sign-in's state or a confirmation's request id. */
export function bindingCookieName(key: string): string {
  return `${PREFIX}${hash('sha256', key, 'base64url').slice(0, 22)}`;
}

/**
 * The binding the browser holds for this state or confirmation, if it sent exactly one: two values
 * under one name mean another page added one (a narrower path is sent first), and neither is trusted.
 */
export function readBinding(request: FastifyRequest, key: string | undefined): string | undefined {
  const header = request.headers.cookie;
  if (!header || key === undefined) return undefined;
  const name = bindingCookieName(key);
  const values = new Set<string>();
  for (const part of header.split(';')) {
    const [cookie, ...value] = part.trim().split('=');
    if (cookie === name) values.add(value.join('='));
  }
  const [only] = values;
  return values.size === 1 && only !== '' ? only : undefined;
}

/**
 * Sets a sign-in's binding under the name its key gives, for `maxAgeSeconds`. SameSite=Lax: the
 * provider's redirect back is a top-level GET from another site, which Lax lets through and Strict
 * would not.
 */
export function setBinding(
  request: FastifyRequest,
  reply: FastifyReply,
  key: string,
  binding: string,
  maxAgeSeconds: number,
): void {
  reply.header('set-cookie', cookieLine(request, bindingCookieName(key), binding, maxAgeSeconds));
}

/**
 * Drops the oldest sign-in cookies the browser sent, so that with the one a new sign-in sets it keeps
 * at most {@link MAX_SIGN_IN_COOKIES}: browsers send cookies of one path oldest first.
 */
export function dropOldBindings(request: FastifyRequest, reply: FastifyReply): void {
  const header = request.headers.cookie;
  if (!header) return;
  const names = new Set<string>();
  for (const part of header.split(';')) {
    const name = part.trim().split('=', 1)[0]!;
    if (name.startsWith(PREFIX)) names.add(name);
  }
  const excess = names.size - (MAX_SIGN_IN_COOKIES - 1);
  if (excess <= 0) return;
  for (const name of [...names].slice(0, excess)) reply.header('set-cookie', cookieLine(request, name, '', 0));
}

/** Drops the cookie of a sign-in or confirmation that is over, so that a browser does not collect them. */
export function clearBinding(request: FastifyRequest, reply: FastifyReply, key: string): void {
  reply.header('set-cookie', cookieLine(request, bindingCookieName(key), '', 0));
}

function cookieLine(request: FastifyRequest, name: string, value: string, maxAgeSeconds: number): string {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  return `${name}=${value}; Path=/sso; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}
