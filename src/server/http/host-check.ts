import { isIPv4, isIPv6 } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { badRequest, forbidden } from './errors.js';

/** Allowed Host values remembered (an allowed name with many ports is still a handful). */
const MAX_REMEMBERED_HOSTS = 256;
const OPEN_BRACKET = 91; // [
const COLON = 58; // :
const DIGIT_0 = 48;
const DIGIT_9 = 57;
const SLASH = 47; // /
/** Characters that end a URL's authority: `/`, `?` and `#`. */
const AUTHORITY_ENDS = new Set([SLASH, 63, 35]);

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

  /** Host values answered before, exactly as sent: a client sends the same one on every request. */
  private allowed = new Set<string>();

  /** Replaces the configured names. */
  replace(names: readonly string[]): void {
    this.names = new Set(names.map(canonicalHostName));
    this.allowed = new Set();
  }

  /** True when a `Host` header value (with or without a port) may be answered. */
  allows(host: string): boolean {
    if (this.allowed.has(host)) return true;
    if (!this.decide(host)) return false;
    // Bounded: only allowed values are kept, and a handful of them are ever in use.
    if (this.allowed.size >= MAX_REMEMBERED_HOSTS) this.allowed.clear();
    this.allowed.add(host);
    return true;
  }

  /** The rule itself: IP literals, localhost names and the configured names. Plain string work, no regex. */
  private decide(host: string): boolean {
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

/** The authority of an absolute-form request target (`GET http://name:port/path`), or undefined for origin-form. */
function absoluteFormAuthority(target: string): string | undefined {
  // Origin-form (`/path`) is every browser's and SDK's request; only a proxy-style client sends a scheme.
  if (target.charCodeAt(0) === SLASH || target === '*') return undefined;
  const schemeEnd = target.indexOf('://');
  if (schemeEnd === -1) return undefined;
  const start = schemeEnd + 3;
  let end = start;
  while (end < target.length && !AUTHORITY_ENDS.has(target.charCodeAt(end))) end++;
  return target.slice(start, end);
}

/** The headers a request may send once only, by the length of their lower-case names (a cheap first test). */
const SINGLE_HEADERS: ReadonlyMap<number, { readonly lower: string; readonly shown: string; readonly bit: number }> =
  new Map([
    [4, { lower: 'host', shown: 'Host', bit: 1 }],
    [13, { lower: 'authorization', shown: 'Authorization', bit: 2 }],
    [9, { lower: 'x-api-key', shown: 'x-api-key', bit: 4 }],
  ]);

/**
 * The first of Host, Authorization and x-api-key the raw headers carry more than once, as named in
 * messages, or undefined. Node keeps the first Host and Authorization and drops the rest: a proxy in
 * front that reads the last one would see another host, or another principal, than this server does.
 */
function repeatedHeader(rawHeaders: readonly string[]): string | undefined {
  let seen = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    const single = SINGLE_HEADERS.get(name.length);
    if (single === undefined || name.toLowerCase() !== single.lower) continue;
    if ((seen & single.bit) !== 0) return single.shown;
    seen |= single.bit;
  }
  return undefined;
}

/**
 * Why a request may not be answered for its `Host` (DNS rebinding) or for a header sent more than once
 * that must come once, or undefined when it may. Runs first on every request, so plain string work
 * only. An absolute-form target's authority overrides Host (RFC 9112 §3.2.2), so it is checked the same way.
 */
export function hostProblem(request: FastifyRequest, allowList: HostAllowList): Error | undefined {
  const raw = request.raw;
  const host = request.headers.host;
  // RFC 9112 §3.2: a request with more than one Host is answered 400; a credential sent twice is too.
  const repeated = repeatedHeader(raw.rawHeaders);
  if (repeated !== undefined) return badRequest(`the ${repeated} header is sent more than once; send it once`);
  if (host === undefined) {
    // HTTP/1.0 has no Host, and no browser speaks it; HTTP/1.1 requires one.
    if (raw.httpVersion === '1.0') return undefined;
    return badRequest('the Host header is missing; HTTP/1.1 requests must name the host');
  }
  if (host === '') return badRequest('the Host header is empty; requests must name the host');
  const authority = absoluteFormAuthority(raw.url ?? '');
  if (authority !== undefined && !allowList.allows(authority)) return refusal(authority);
  return allowList.allows(host) ? undefined : refusal(host);
}
