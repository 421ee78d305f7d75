import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { ApiKeyCreate, ApiKeyCreated } from '../../../src/shared/gateway-api.js';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../../support/temp-servers.js';
import {
  startAnthropicUpstream,
  startOpenAIUpstream,
  type AnthropicUpstream,
  type OpenAIUpstream,
} from '../../support/upstreams/index.js';

/** Provider keys the gateway holds; tests assert they never leak. */
export const OPENAI_UPSTREAM_KEY = 'sk-upstream-openai-0123456789secret';
export const ANTHROPIC_UPSTREAM_KEY = 'sk-ant-upstream-0123456789secret';
export const SECONDARY_UPSTREAM_KEY = 'sk-upstream-secondary-0123456789secret';

/** A gateway over mock OpenAI and Anthropic upstreams, with helpers for the admin API and the SDKs. */
export interface GatewayHarness {
  readonly servers: TempServers;
  readonly openai: OpenAIUpstream;
  /** The second upstream of the `ha-model` deployments (fallback target). */
  readonly openaiSecondary: OpenAIUpstream;
  readonly anthropic: AnthropicUpstream;
  readonly url: string;
  /** Calls the admin API with the master key (and `headers`, such as an `if-match`). */
  admin(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  /** Issues a key (default scopes: chat and embeddings). */
  issueKey(input?: ApiKeyCreate): Promise<ApiKeyCreated>;
  /** The official OpenAI client against the gateway (only baseURL and apiKey changed; no retries, to keep error tests fast). */
  openaiClient(apiKey: string): OpenAI;
  /** The official Anthropic client against the gateway (x-api-key). */
  anthropicClient(apiKey: string): Anthropic;
  /** Usage rows, newest first (flushes the batch first). */
  usageRows(query?: string): Promise<any[]>;
  close(): Promise<void>;
}

/** The harness's `ha-model` deployments: a primary on `primaryUrl` all but always chosen first, then a secondary. */
export function haDeployments(primaryUrl: string, secondaryUrl: string): Array<Record<string, unknown>> {
  const deployment = (id: string, url: string, apiKey: string, weight: number) => ({
    id,
    model: 'ha-model',
    provider: 'openai',
    upstream_model: 'gpt-4o-mini',
    base_url: url,
    api_key: apiKey,
    weight,
  });
  return [
    deployment('ha-primary', primaryUrl, OPENAI_UPSTREAM_KEY, 1_000_000),
    deployment('ha-secondary', secondaryUrl, SECONDARY_UPSTREAM_KEY, 0.000001),
  ];
}

/** The harness file's llm section: a test that changes it spreads this, so the rest stays the harness's. */
export const HARNESS_LLM = {
  allowed_models: ['demo/echo', 'demo/embed', 'gpt-4o-mini', 'claude-opus-4-7', 'text-embedding-3-small', 'ha-model'],
  model_aliases: { fast: 'gpt-4o-mini', smart: 'claude-opus-4-7', ghost: 'gpt-unlisted' },
  per_model_max_tokens: { 'gpt-4o-mini': 100, 'claude-opus-4-7': 200 },
  default_embedding_model: 'text-embedding-3-small',
};

/** Starts the mocks and the gateway configured to use them. */
export async function startGatewayHarness(
  extra: Record<string, unknown> = {},
  env: NodeJS.ProcessEnv = {},
): Promise<GatewayHarness> {
  const [openai, openaiSecondary, anthropic] = await Promise.all([
    startOpenAIUpstream({ apiKey: OPENAI_UPSTREAM_KEY }),
    startOpenAIUpstream({ apiKey: SECONDARY_UPSTREAM_KEY }),
    startAnthropicUpstream({ apiKey: ANTHROPIC_UPSTREAM_KEY }),
  ]);
  const servers = await startTempServers(
    {
      llm: HARNESS_LLM,
      providers: {
        openai: { base_url: openai.url, api_key: OPENAI_UPSTREAM_KEY },
        anthropic: { base_url: anthropic.url, api_key: ANTHROPIC_UPSTREAM_KEY },
      },
      // Weights make the primary the first choice (all but certainly), so fallback tests are deterministic.
      deployments: haDeployments(openai.url, openaiSecondary.url),
      pricing: { 'gpt-4o-mini': { input_per_mtok: 0.15, output_per_mtok: 0.6 } },
      // One attempt per deployment, so failure tests see each upstream call once; retry tests set their own.
      gateway: { max_retries: 0, retry_backoff_ms: 10 },
      ...extra,
    },
    env,
  );
  const url = servers.gatewayUrl;
  const admin: GatewayHarness['admin'] = async (method, path, body, headers = {}) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${TEST_MASTER_KEY}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  };
  return {
    servers,
    openai,
    openaiSecondary,
    anthropic,
    url,
    admin,
    issueKey: async (input = { scopes: ['chat', 'embeddings'] }) => {
      const created = await admin('POST', '/internal/api-keys', input);
      if (created.status !== 201) throw new Error(`key issuance failed: ${JSON.stringify(created.body)}`);
      return created.body as ApiKeyCreated;
    },
    openaiClient: (apiKey) => new OpenAI({ baseURL: `${url}/v1`, apiKey, maxRetries: 0 }),
    anthropicClient: (apiKey) => new Anthropic({ baseURL: url, apiKey, maxRetries: 0 }),
    usageRows: async (query = '') => (await admin('GET', `/internal/usage/logs${query ? `?${query}` : ''}`)).body.data,
    close: async () => {
      await servers.stop();
      await Promise.all([openai.close(), openaiSecondary.close(), anthropic.close()]);
    },
  };
}

/**
 * A harness and a key with every scope for the tests of one describe block: started before them,
 * closed after them. Read its fields inside the tests (they are set once the harness is up).
 */
export function harnessWithKey(extra: Record<string, unknown> = {}): {
  readonly harness: GatewayHarness;
  readonly key: string;
} {
  const context = {} as { harness: GatewayHarness; key: string };
  beforeAll(async () => {
    context.harness = await startGatewayHarness(extra);
    context.key = (await context.harness.issueKey({ scopes: ['*'] })).key;
  });
  afterAll(async () => context.harness?.close());
  return context;
}

/** A block's harness with both SDK clients on one key, as {@link withSdkClients} hands them over. */
export interface HarnessClients {
  readonly h: GatewayHarness;
  readonly openai: OpenAI;
  readonly anthropic: Anthropic;
}

/**
 * Starts a harness with `extra` configuration before the block's tests and closes it after them,
 * handing `ready` both SDK clients on a key with `scopes`; the mock upstreams forget their requests
 * before each test.
 */
export function withSdkClients(
  extra: Record<string, unknown>,
  scopes: string[],
  ready: (clients: HarnessClients) => void,
): void {
  let h: GatewayHarness | undefined;
  beforeAll(async () => {
    h = await startGatewayHarness(extra);
    const key = (await h.issueKey({ scopes })).key;
    ready({ h, openai: h.openaiClient(key), anthropic: h.anthropicClient(key) });
  });
  beforeEach(() => {
    h?.openai.reset();
    h?.anthropic.reset();
  });
  afterAll(() => h?.close());
}

/** A PUT of whole-set admin settings, with `ifMatch` as its If-Match when given; answers the new ETag too. */
export async function putIfMatch(
  h: GatewayHarness,
  path: string,
  body: unknown,
  ifMatch?: string,
): Promise<{ status: number; etag: string | null; body: any }> {
  const answer = await h.admin('PUT', path, body, ifMatch === undefined ? {} : { 'if-match': ifMatch });
  return { status: answer.status, etag: answer.headers.get('etag'), body: answer.body };
}
