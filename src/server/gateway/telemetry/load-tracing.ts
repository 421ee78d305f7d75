import { tracesUrl, type TelemetryConfig } from './telemetry-config.js';
import type { RequestTracing } from './tracing.js';

/**
 * The tracer for this configuration, or undefined when tracing is off. The OpenTelemetry SDK and
 * exporter are loaded only here, when an endpoint is configured: a gateway that does not trace
 * neither imports them (a few hundred milliseconds of start-up) nor does any tracer work per request.
 */
export async function loadRequestTracing(
  config: TelemetryConfig,
  version: string,
  warn: (message: string) => void,
): Promise<RequestTracing | undefined> {
  const url = tracesUrl(config);
  if (url === undefined) return undefined;
  const { RequestTracing: Tracing } = await import('./tracing.js');
  return new Tracing(config, url, version, warn);
}
