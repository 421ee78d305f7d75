/** A cookie jar per host:port, enough for redirect chains between the gateway and a test IdP. */
export class CookieJar {
  private readonly byHost = new Map<string, Map<string, string>>();

  /** Keeps the cookies a response set. */
  store(url: string, response: Response): void {
    const host = new URL(url).host;
    const jar = this.byHost.get(host) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    this.byHost.set(host, jar);
  }

  /** The Cookie header for `url`. */
  header(url: string): string | undefined {
    const jar = this.byHost.get(new URL(url).host);
    if (!jar || jar.size === 0) return undefined;
    return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** One hop of a redirect chain. */
export interface Hop {
  readonly url: string;
  readonly response: Response;
}

/**
 * Follows redirects like a browser (GET, cookies per host) from `url` until an answer that is not a
 * redirect, or until the next location satisfies `stopAt` (returned unfetched as `stoppedAt`).
 */
export async function followRedirects(
  url: string,
  jar: CookieJar,
  options: { stopAt?: (url: string) => boolean; maxHops?: number } = {},
): Promise<{ hops: Hop[]; last: Hop; stoppedAt?: string }> {
  const hops: Hop[] = [];
  let current = url;
  for (let i = 0; i < (options.maxHops ?? 20); i++) {
    const cookie = jar.header(current);
    const response = await fetch(current, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    jar.store(current, response);
    const hop = { url: current, response };
    hops.push(hop);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) return { hops, last: hop };
    await response.arrayBuffer();
    const next = new URL(location, current).toString();
    if (options.stopAt?.(next)) return { hops, last: hop, stoppedAt: next };
    current = next;
  }
  throw new Error(`more than ${options.maxHops ?? 20} redirects from ${url}`);
}
