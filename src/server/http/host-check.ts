import { isIPv4, isIPv6 } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { badRequest, forbidden } from './errors.js';

const OPEN_BRACKET = 91; // [
const COLON = 58; // :
const DIGIT_0 = 48;
const DIGIT_9 = 57;

/** True when `host` has nothing from `from` on, or `:` and a port of one to five digits. */
function portSuffixOk(host: string, from: number): boolean {
  if (from === host.length) return true;
  if (host.charCodeAt(from) !== COLON) return false;
  const digits = host.length - from - 1;
  if (digits < 1 || digits > 5) return false;
  for (let i = from + 1; i < host.length; i++) {
    const code = host.charCodeAt(i);
    if (code < DIGIT_0 || code > DIGIT_9) return false;
  }
  return true;
}

/** A host name as compared: lower case, without the trailing dot of a fully qualified name. */
export function canonicalHostName(name: string): string {
  const lower = name.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/**
 * The `Host` values a server answers: IP literals, `localhost` and its subdomains, and configured
 * names. A page on another name that rebinds its DNS to this machine sends its own name, so it is
 * refused; an IP literal or localhost is never something an attacker's page can be served from.
 */
export class HostAllowList {
  private names: ReadonlySet<string> = new Set();

  /** Replaces the configured names. */
  replace(names: readonly string[]): void {
    this.names = new Set(names.map(canonicalHostName));
  }

  /** True when a `Host` header value (with or without a port) may be answered. Plain string work, no regex. */
  allows(host: string): boolean {
    if (host.charCodeAt(0) === OPEN_BRACKET) {
      const end = host.indexOf(']');
      return end > 1 && portSuffixOk(host, end + 1) && isIPv6(host.slice(1, end));
    }
    const colon = host.indexOf(':');
    if (colon !== -1 && !portSuffixOk(host, colon)) return false;
    const name = colon === -1 ? host : host.slice(0, colon);
    if (isIPv4(name)) return true;
    const canonical = canonicalHostName(name);
    return canonical === 'localhost' || canonical.endsWith('.localhost') || this.names.has(canonical);
  }
}

function refusal(host: string): Error {
  const shown = host.length > 100 ? `${host.slice(0, 100)}...` : host;
  return forbidden(
    `host '${shown}' is not allowed: this server answers IP addresses, localhost and the names listed in server.allowed_hosts`,
  );
}

/** Refuses requests whose `Host` is not on the list, before anything else runs (DNS rebinding). */
export function installHostCheck(app: FastifyInstance, allowList: HostAllowList): void {
  // Callback style: it runs on every request.
  app.addHook('onRequest', (request, _reply, done) => {
    const host = request.headers.host;
    if (host === undefined) {
      // HTTP/1.0 has no Host, and no browser speaks it; HTTP/1.1 requires one.
      if (request.raw.httpVersion === '1.0') done();
      else done(badRequest('the Host header is missing; HTTP/1.1 requests must name the host'));
      return;
    }
    if (allowList.allows(host)) done();
    else done(refusal(host));
  });
}
