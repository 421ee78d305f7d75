import type { Attributes } from '@opentelemetry/api';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

/**
 * The HTTP server span's attributes of the connection, as OpenTelemetry's HTTP server conventions
 * name them: `url.scheme` (required), and `server.address`/`server.port` as the client addressed the
 * gateway (its Host header, else the socket), `client.address` (the peer: the gateway trusts no
 * forwarding header), `user_agent.original` and `network.protocol.version`. Read only when tracing.
 */
export function connectionAttributes(request: IncomingMessage): Attributes {
  const socket = request.socket;
  const scheme = (socket as Partial<TLSSocket>).encrypted === true ? 'https' : 'http';
  const attributes: Attributes = { 'url.scheme': scheme, 'network.protocol.version': request.httpVersion };
  const host = hostAndPort(request.headers.host);
  const address = host?.address ?? socket.localAddress;
  if (address !== undefined) attributes['server.address'] = address;
  const port = host?.port ?? socket.localPort;
  if (port !== undefined) attributes['server.port'] = port;
  if (socket.remoteAddress !== undefined) attributes['client.address'] = socket.remoteAddress;
  const agent = request.headers['user-agent'];
  if (agent !== undefined) attributes['user_agent.original'] = agent;
  return attributes;
}

/** A Host header's name (brackets of an IPv6 address removed) and port, when it can be read. */
function hostAndPort(host: string | undefined): { address: string; port: number | undefined } | undefined {
  if (host === undefined || host === '') return undefined;
  try {
    const url = new URL(`http://${host}`);
    const address = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    return { address, port: url.port === '' ? undefined : Number(url.port) };
  } catch {
    return undefined;
  }
}
