import { z } from 'zod';

const url = z.url({ protocol: /^https?$/, error: 'must be an http or https URL' });

/**
 * The `telemetry` section: OpenTelemetry traces, exported over OTLP/HTTP (JSON) when an endpoint is
 * set here or by the standard OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
 * variables, and entirely off otherwise.
 */
export const telemetryConfigSchema = z
  .object({
    // A collector's base address; /v1/traces is appended (as with OTEL_EXPORTER_OTLP_ENDPOINT).
    otlp_endpoint: url.optional(),
    // The full traces address, used as it is (as with OTEL_EXPORTER_OTLP_TRACES_ENDPOINT); wins over otlp_endpoint.
    otlp_traces_endpoint: url.optional(),
    // Sent with every export (a collector's auth header, for example).
    otlp_headers: z.record(z.string().min(1), z.string()).default({}),
    service_name: z.string().min(1).default('gatehouse-gateway'),
    // More resource attributes of every span (`deployment.environment.name`, `service.instance.id`, ...);
    // OTEL_RESOURCE_ATTRIBUTES adds to them.
    resource_attributes: z.record(z.string().min(1), z.string()).default({}),
    // Share of new traces recorded; a continued trace follows its caller's sampling decision.
    sample_ratio: z.number().min(0).max(1).default(1),
    // Longest wait before finished spans are sent (they go sooner when a batch fills).
    export_delay_ms: z.number().int().min(1).max(60_000).default(2000),
    // Off even with an endpoint (OTEL_SDK_DISABLED=true also turns it off).
    disabled: z.boolean().default(false),
  })
  .strict();

/** The telemetry settings. */
export type TelemetryConfig = z.infer<typeof telemetryConfigSchema>;

/** The standard OpenTelemetry variables, as overrides of the `telemetry` section. */
export function telemetryFromEnv(
  section: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
): Record<string, unknown> | undefined {
  const next: Record<string, unknown> = { ...section };
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) next.otlp_endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) next.otlp_traces_endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (env.OTEL_SERVICE_NAME) next.service_name = env.OTEL_SERVICE_NAME;
  const read = env.OTEL_RESOURCE_ATTRIBUTES ? resourceAttributes(env.OTEL_RESOURCE_ATTRIBUTES) : undefined;
  // Unreadable, it is left out (resourceAttributesProblem says so), as OpenTelemetry's SDKs do.
  if (read !== undefined && 'attributes' in read) {
    const own = section.resource_attributes;
    // A file's own list that is no mapping is left for the schema to refuse, not merged character by character.
    if (own === undefined || (typeof own === 'object' && own !== null && !Array.isArray(own)))
      next.resource_attributes = { ...own, ...read.attributes };
    // Its service.name names the service unless OTEL_SERVICE_NAME or the file does.
    const named = read.attributes['service.name'];
    if (named !== undefined && !env.OTEL_SERVICE_NAME && section.service_name === undefined) next.service_name = named;
  }
  if (env.OTEL_SDK_DISABLED?.toLowerCase() === 'true' || env.OTEL_TRACES_EXPORTER?.toLowerCase() === 'none')
    next.disabled = true;
  return Object.keys(next).length > 0 ? next : undefined;
}

/**
 * OTEL_RESOURCE_ATTRIBUTES as the OpenTelemetry specification writes it: `key=value` pairs separated
 * by commas, values percent-encoded; or what is wrong with it.
 */
function resourceAttributes(text: string): { attributes: Record<string, string> } | { problem: string } {
  const attributes: Record<string, string> = {};
  for (const pair of text.split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    const key = pair.slice(0, at).trim();
    const shown = pair.trim().slice(0, 60);
    if (at < 0 || key === '') return { problem: `'${shown}' is not a key=value pair` };
    try {
      attributes[key] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      return { problem: `the value of '${key}' is not percent-encoded (write % as %25)` };
    }
  }
  return { attributes };
}

/** Why OTEL_RESOURCE_ATTRIBUTES is left out, for the start's warnings; undefined when it is read. */
export function resourceAttributesProblem(env: NodeJS.ProcessEnv): string | undefined {
  const read = env.OTEL_RESOURCE_ATTRIBUTES ? resourceAttributes(env.OTEL_RESOURCE_ATTRIBUTES) : undefined;
  return read !== undefined && 'problem' in read
    ? `OTEL_RESOURCE_ATTRIBUTES is left out: ${read.problem} (pairs are key=value, comma-separated)`
    : undefined;
}

/** Where spans are sent, or undefined when tracing is off. */
export function tracesUrl(config: TelemetryConfig): string | undefined {
  if (config.disabled) return undefined;
  if (config.otlp_traces_endpoint !== undefined) return config.otlp_traces_endpoint;
  if (config.otlp_endpoint === undefined) return undefined;
  return `${config.otlp_endpoint.replace(/\/+$/, '')}/v1/traces`;
}
