/**
 * The policy stages' cost, measured inside `npm run bench:gateway`: the same sequential requests with
 * a key that no stage acts on and with keys that turn stages on, in alternating rounds on the same
 * gateway, so both see the same moment of the machine. Each variant's p50 is compared with the
 * baseline's.
 */

/** Sequential requests with these headers; p50 and p99 in milliseconds. */
export type SequentialRun = (
  headers: Record<string, string>,
  count: number,
) => Promise<{ readonly p50: number; readonly p99: number }>;

/** One way of calling the gateway: a key created with this body (and the records it needs first). */
export interface StageVariant {
  readonly name: string;
  /** Admin requests sent before the key is issued (users, teams, settings). */
  readonly setup: ReadonlyArray<{ readonly method: string; readonly path: string; readonly body: unknown }>;
  readonly key: Record<string, unknown>;
  /** PII masking and the content policy (patterns and an input token cap) on for this key. */
  readonly guardrails?: boolean;
  /** The response cache on for this key (sampled requests included, so a repeated body is a hit). */
  readonly cache?: boolean;
  /** Request headers of this variant besides the key (a RAG collection to search). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Limits on: every bucket and budget a request can pass, all far from being reached. */
export const LIMITS_ON: StageVariant = {
  name: 'limits on',
  setup: [
    {
      method: 'POST',
      path: '/internal/teams',
      body: {
        id: 'bench-team',
        rpm_limit: 10_000_000,
        tpm_limit: 1e9,
        tpm_budget: 1e9,
        tpd_budget: 1e12,
        usd_daily_budget: 1e6,
      },
    },
    {
      method: 'POST',
      path: '/internal/users',
      body: {
        id: 'bench-user',
        team: 'bench-team',
        rpm_limit: 10_000_000,
        tpm_limit: 1e9,
        tpm_budget: 1e9,
        tpd_budget: 1e12,
        usd_daily_budget: 1e6,
      },
    },
  ],
  key: { name: 'bench limits', user: 'bench-user', rpm_limit: 10_000_000, tpm_limit: 1e9 },
};

/** PII masking and the content policy for this key. */
export const GUARDRAILS_ON: StageVariant = {
  name: 'PII and content policy on',
  setup: [],
  key: { name: 'bench guardrails' },
  guardrails: true,
};

/** A small handbook the RAG variant searches (its words overlap the benchmark's question). */
const RAG_DOCUMENTS = [
  ['greetings.md', '# Greetings\n\nHow are you? Say hello there to every caller, then ask how you can help today.'],
  ['hours.md', '# Hours\n\nSupport answers from nine to five; outside those hours an automatic reply is sent.'],
  ['tone.md', '# Tone\n\nBe helpful and brief. Greet people by name when you know it.'],
] as const;

/** RAG on: BM25 over a three-document collection, its chunks put into every request (x-gatehouse-rag). */
export const RAG_ON: StageVariant = {
  name: 'RAG on',
  setup: [
    { method: 'POST', path: '/internal/rag/collections', body: { name: 'bench-handbook' } },
    ...RAG_DOCUMENTS.map(([key, content]) => ({
      method: 'POST',
      path: '/internal/rag/collections/bench-handbook/documents',
      body: { key, content },
    })),
  ],
  key: { name: 'bench rag', scopes: ['chat', 'rag:bench-handbook'] },
  headers: { 'x-gatehouse-rag': 'bench-handbook' },
};

/** The cache on: after the first request, every one is answered from the cache (the hit path). */
export const CACHE_HITS: StageVariant = {
  name: 'cache on (hits)',
  setup: [],
  key: { name: 'bench cache' },
  cache: true,
};

/**
 * The request-side guardrails at once: PII masking, the content policy and the cache on a miss.
 * `no-cache` makes each request a miss that computes its cache key and stores the answer.
 */
export const GUARDRAILS_AND_CACHE: StageVariant = {
  name: 'PII, content policy and cache on',
  setup: [],
  key: { name: 'bench guardrails and cache' },
  headers: { 'cache-control': 'no-cache' },
  guardrails: true,
  cache: true,
};

/**
 * Every stage at once: limits, PII, content policy, RAG and the cache. `no-cache` makes each request
 * a miss that computes its cache key and stores the answer, the cost a new request pays; the hit path
 * is measured apart (and is cheaper than any upstream call).
 */
export const ALL_ON: StageVariant = {
  name: 'every stage on, RAG included',
  setup: [],
  key: { ...LIMITS_ON.key, name: 'bench all', scopes: ['chat', 'rag:bench-handbook'] },
  headers: { 'x-gatehouse-rag': 'bench-handbook', 'cache-control': 'no-cache' },
  guardrails: true,
  cache: true,
};

/** Overrides for the keys whose variants turn guardrails on (one PUT each: a PUT replaces the `keys` map). */
function guardrailSettings(keyIds: readonly string[]) {
  const each = <T>(rule: T) => Object.fromEntries(keyIds.map((id) => [id, rule]));
  return [
    { method: 'PUT', path: '/internal/pii', body: { keys: each({ mode: 'mask' }) } },
    {
      method: 'PUT',
      path: '/internal/content-policy',
      body: { keys: each({ blocked_patterns: ['launch\\s+codes', '\\bforbidden\\b'], max_input_tokens: 100_000 }) },
    },
  ];
}

/** The variants measured against the baseline key (ALL_ON last: it needs LIMITS_ON's user and RAG_ON's collection). */
export const STAGE_VARIANTS: readonly StageVariant[] = [
  LIMITS_ON,
  GUARDRAILS_ON,
  RAG_ON,
  CACHE_HITS,
  GUARDRAILS_AND_CACHE,
  ALL_ON,
];

/** p50 of each variant and of the baseline, over interleaved rounds. */
export interface StageOverhead {
  readonly rounds: number;
  readonly requests_per_round: number;
  readonly baseline_p50_ms: number;
  readonly variants: ReadonlyArray<{ readonly name: string; readonly p50_ms: number; readonly added_p50_ms: number }>;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/** Issues the variants' keys and runs the alternating rounds. */
export async function measureStageOverhead(
  gatewayUrl: string,
  masterKey: string,
  baselineKey: string,
  run: SequentialRun,
  options: { readonly rounds: number; readonly count: number },
): Promise<StageOverhead> {
  const admin = async (method: string, path: string, body: unknown): Promise<any> => {
    const response = await fetch(`${gatewayUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const headersOf = (key: string) => ({ 'content-type': 'application/json', authorization: `Bearer ${key}` });
  const variants: Array<{ name: string; headers: Record<string, string>; p50s: number[] }> = [];
  const guarded: string[] = [];
  const cached: string[] = [];
  for (const variant of STAGE_VARIANTS) {
    for (const step of variant.setup) await admin(step.method, step.path, step.body);
    const created = await admin('POST', '/internal/api-keys', variant.key);
    if (variant.guardrails) guarded.push(created.id);
    if (variant.cache) cached.push(created.id);
    variants.push({ name: variant.name, headers: { ...headersOf(created.key), ...variant.headers }, p50s: [] });
  }
  if (guarded.length > 0) for (const step of guardrailSettings(guarded)) await admin(step.method, step.path, step.body);
  if (cached.length > 0) {
    const keys = Object.fromEntries(cached.map((id) => [id, { enabled: true, sampled: true }]));
    await admin('PUT', '/internal/cache', { keys });
  }
  const baseline: number[] = [];
  for (let round = 0; round < options.rounds; round += 1) {
    baseline.push((await run(headersOf(baselineKey), options.count)).p50);
    for (const variant of variants) variant.p50s.push((await run(variant.headers, options.count)).p50);
  }
  const baselineP50 = median(baseline);
  return {
    rounds: options.rounds,
    requests_per_round: options.count,
    baseline_p50_ms: baselineP50,
    variants: variants.map((variant) => ({
      name: variant.name,
      p50_ms: median(variant.p50s),
      added_p50_ms: Math.round((median(variant.p50s) - baselineP50) * 1000) / 1000,
    })),
  };
}
