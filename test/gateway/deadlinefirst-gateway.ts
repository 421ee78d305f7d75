import OpenAI from 'openai';
import { gatewayAdmin, startTempServers, type AdminAnswer, type TempServers } from '../support/temp-servers.js';

/** The key every upstream of these tests takes. */
export const UPSTREAM_KEY = 'sk-deadlinefirst-0123456789';

/** The request header that sets a request's deadline. */
export const DEADLINE = 'x-gatehouse-timeout-ms';

/** An OpenAI-compatible deployment of `model` on `baseUrl`; `timeoutMs` unset keeps the default ten minutes. */
export function deployment(
  id: string,
  model: string,
  baseUrl: string,
  weight: number,
  timeoutMs?: number,
): Record<string, unknown> {
  return {
    id,
    model,
    provider: 'openai',
    upstream_model: 'gpt-4o-mini',
    base_url: baseUrl,
    api_key: UPSTREAM_KEY,
    weight,
    ...(timeoutMs === undefined ? {} : { timeout_ms: timeoutMs }),
  };
}

/** A gateway over the given deployments, with the official OpenAI client (no retries) and the admin API. */
export interface DeadlineGateway {
  readonly servers: TempServers;
  readonly client: OpenAI;
  admin(method: string, path: string, body?: unknown): Promise<AdminAnswer>;
}

/** Starts a gateway serving `deployments` (their models allowed), with `gateway` settings, and a chat key. */
export async function startDeadlineGateway(
  deployments: ReadonlyArray<Record<string, unknown>>,
  gateway: Record<string, unknown>,
): Promise<DeadlineGateway> {
  const servers = await startTempServers({
    llm: { allowed_models: [...new Set(deployments.map((entry) => String(entry.model)))] },
    gateway,
    deployments,
  });
  const admin = gatewayAdmin(() => servers);
  const key = (await admin('POST', '/internal/api-keys', { scopes: ['chat'] })).body.key as string;
  return { servers, admin, client: new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 }) };
}
