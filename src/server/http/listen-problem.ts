/** Which settings choose a service's address, for messages that tell the user what to change. */
const SETTINGS = {
  gateway: { port: 'GATEWAY_PORT or server.gateway_port' },
  store: { port: 'STORE_PORT or server.store_port' },
} as const;
const HOST_SETTING = 'GATEHOUSE_HOST or server.host';

/**
 * A listen failure said in the user's terms: which service, which address, and the setting that
 * chooses it, instead of a bare `listen EADDRINUSE`. Other errors are returned as they are.
 */
export function listenProblem(error: unknown, service: 'gateway' | 'store', host: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException).code;
  const message = describe(code, service, host, port);
  if (message === undefined) return error instanceof Error ? error : new Error(String(error));
  // The code stays: the desktop app moves to free ports when its usual ones are taken.
  return Object.assign(new Error(message, { cause: error }), { code });
}

function describe(
  code: string | undefined,
  service: 'gateway' | 'store',
  host: string,
  port: number,
): string | undefined {
  const setting = SETTINGS[service].port;
  switch (code) {
    case 'EADDRINUSE':
      return `the ${service} port ${port} is in use by another process: set ${setting} (0 picks a free port)`;
    case 'EACCES':
      return `the ${service} may not listen on port ${port} (ports below 1024 need privileges): set ${setting}`;
    case 'EADDRNOTAVAIL':
      return `the ${service} cannot listen on ${host}: no network interface of this machine has that address (${HOST_SETTING})`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return `the ${service} cannot listen on ${host}: the name does not resolve (${HOST_SETTING})`;
    default:
      return undefined;
  }
}
