import { createHash } from 'node:crypto';
import type { Config } from '../../config/schema.js';
import type { ModelSettings } from '../../../shared/gateway-api.js';
import type { Deployment } from '../providers/types.js';

/** Object entries in key order, so equal settings always serialise alike. */
const sorted = (record: Readonly<Record<string, unknown>>): Array<[string, unknown]> =>
  Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * A short, stable hash of everything in force that decides where a request goes and what is allowed:
 * the model settings, the deployments (never their keys: a rotated key routes nothing differently),
 * retries, passthrough keys and the Responses default. It changes exactly when one of them does, so
 * a client can tell which policy answered it (`X-Gateway-Policy-Version`).
 */
export function policyVersion(settings: ModelSettings, deployments: readonly Deployment[], config: Config): string {
  const canonical = JSON.stringify([
    [...settings.allowed_models].sort(),
    sorted(settings.model_aliases),
    sorted(settings.per_model_max_tokens),
    settings.default_embedding_model,
    deployments.map((d) => [
      d.id,
      d.model,
      d.provider,
      d.upstreamModel,
      d.baseUrl ?? null,
      d.apiVersion ?? null,
      d.responsesApi ?? null,
      d.weight,
      d.timeoutMs,
      d.maxRetries,
      d.capabilities ?? null,
    ]),
    [config.gateway.max_retries, config.gateway.retry_backoff_ms, config.gateway.max_retry_wait_ms],
    config.allow_passthrough_keys,
    config.responses.default_store,
  ]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}
