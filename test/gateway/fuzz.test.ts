import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_MASTER_KEY } from '../support/temp-servers.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

// No input reaches a 500: random query values on every admin GET route, and random JSON shapes on
// every /v1 endpoint (whole bodies, and valid bodies with fields replaced by random values). Small
// runs with a fixed seed, so a failure reproduces.

const RUNS = { numRuns: 120, seed: 20_261_124 };

/** Query values that have broken parsers before: huge, negative, exponent, hex, dates past 9999. */
const queryValue = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.integer().map(String),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.double().map(String),
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  fc.constantFrom(
    '',
    '1e400',
    '0x10',
    '-0',
    ' 1',
    'NaN',
    'Infinity',
    '9007199254740993',
    '253402300800000',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999Z',
    '+275760-09-13T00:00:00Z',
    '2024-02-30T00:00:00Z',
    'constructor',
    '__proto__',
  ),
);

const ADMIN_ROUTES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['/internal/usage', ['group_by', 'bucket', 'since', 'until', 'key_id', 'model']],
  ['/internal/usage/logs', ['limit', 'before', 'key_id', 'model', 'request_id']],
  ['/internal/audit', ['limit', 'before', 'action']],
  ['/internal/traffic', ['limit', 'after', 'bodies']],
  ['/internal/api-keys', ['user', 'team', 'include_revoked']],
  ['/internal/models', []],
  ['/internal/deployments', []],
  ['/internal/deployments/health', []],
];

/** A query string from some of `names`, each possibly repeated (the parser then gives an array). */
const queryOf = (names: readonly string[]) =>
  fc
    .array(fc.tuple(fc.constantFrom(...names, 'unknown'), queryValue), { maxLength: 6 })
    .map((pairs) => new URLSearchParams(pairs).toString());

const json = fc.jsonValue({ maxDepth: 3 });
/** Values for a known field: random JSON, or numbers and strings at the edges. */
const fieldValue = fc.oneof(
  json,
  fc.integer(),
  fc.constantFrom(0, -1, 2 ** 31, 2 ** 53, 1e308, 1.5, '', 'constructor', '__proto__', 'toString'),
);
/** A body with some of `fields` set to random values over a valid `base`. */
const mutated = (base: Record<string, unknown>, fields: readonly string[]) =>
  fc.dictionary(fc.constantFrom(...fields), fieldValue, { maxKeys: 4 }).map((changes) => ({ ...base, ...changes }));

const block = fc.record(
  {
    type: fc.constantFrom(
      'text',
      'image',
      'tool_use',
      'tool_result',
      'thinking',
      'document',
      'constructor',
      '__proto__',
    ),
    text: fieldValue,
    source: fc.oneof(json, fc.record({ type: fc.constantFrom('base64', 'url', 'file', 'toString'), data: json })),
    id: fieldValue,
    name: fieldValue,
    input: json,
    tool_use_id: fieldValue,
    content: fc.oneof(json, fc.array(fc.record({ type: fc.constantFrom('text', 'image', 'valueOf'), text: json }))),
  },
  { requiredKeys: ['type'] },
);
const part = fc.record(
  {
    type: fc.constantFrom('text', 'image_url', 'input_audio', 'file', 'refusal', 'hasOwnProperty'),
    text: fieldValue,
    image_url: json,
    input_audio: json,
    refusal: fieldValue,
  },
  { requiredKeys: ['type'] },
);
const chatMessage = fc.record(
  {
    role: fc.constantFrom('system', 'developer', 'user', 'assistant', 'tool', 'constructor'),
    content: fc.oneof(fc.string({ maxLength: 20 }), fc.array(part, { maxLength: 3 }), json),
    tool_calls: json,
    tool_call_id: fieldValue,
    name: fieldValue,
  },
  { requiredKeys: ['role'] },
);

const CHAT_FIELDS = [
  'model',
  'messages',
  'stream',
  'stream_options',
  'max_tokens',
  'max_completion_tokens',
  'n',
  'stop',
  'tools',
  'tool_choice',
  'response_format',
  'temperature',
  'top_p',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'user',
  'seed',
  'parallel_tool_calls',
];
const MESSAGES_FIELDS = [
  'model',
  'messages',
  'max_tokens',
  'system',
  'stream',
  'temperature',
  'top_k',
  'stop_sequences',
  'tools',
  'tool_choice',
  'metadata',
  'output_config',
  'thinking',
];
const EMBEDDINGS_FIELDS = ['model', 'input', 'dimensions', 'encoding_format', 'user'];

describe('fuzz: no input reaches a 500', () => {
  let harness: GatewayHarness;
  let key: string;

  const status = async (path: string, init: RequestInit): Promise<number> => {
    const response = await fetch(`${harness.url}${path}`, init);
    await response.arrayBuffer();
    return response.status;
  };
  const post = (path: string, body: unknown) =>
    status(path, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    harness = await startGatewayHarness();
    key = (await harness.issueKey({ scopes: ['*'] })).key;
  });
  afterAll(async () => harness.close());

  it.each(ADMIN_ROUTES)('GET %s with random query values', async (path, names) => {
    await fc.assert(
      fc.asyncProperty(queryOf(names), async (query) => {
        const code = await status(`${path}?${query}`, { headers: { authorization: `Bearer ${TEST_MASTER_KEY}` } });
        expect(code, `${path}?${query}`).toBeLessThan(500);
      }),
      { ...RUNS, numRuns: names.length === 0 ? 10 : RUNS.numRuns },
    );
  });

  it('GET /internal/traffic/stream with random query values answers its headers below 500', async () => {
    await fc.assert(
      fc.asyncProperty(queryOf(['after']), async (query) => {
        const controller = new AbortController();
        const response = await fetch(`${harness.url}/internal/traffic/stream?${query}`, {
          headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
          signal: controller.signal,
        });
        controller.abort();
        expect(response.status, query).toBeLessThan(500);
      }),
      { ...RUNS, numRuns: 40 },
    );
  });

  it.each([
    ['/v1/chat/completions', { model: 'demo/echo', messages: [{ role: 'user', content: 'hi' }] }, CHAT_FIELDS],
    [
      '/v1/messages',
      { model: 'demo/echo', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] },
      MESSAGES_FIELDS,
    ],
    ['/v1/embeddings', { model: 'demo/embed', input: 'hi' }, EMBEDDINGS_FIELDS],
  ] as const)('POST %s with fields replaced by random values', async (path, base, fields) => {
    await fc.assert(
      fc.asyncProperty(mutated(base, fields), async (body) => {
        expect(await post(path, body), JSON.stringify(body)).toBeLessThan(500);
      }),
      RUNS,
    );
  });

  it('POST /v1/messages and /v1/chat/completions with random content blocks and messages', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(block, { minLength: 1, maxLength: 3 }),
        fc.array(chatMessage, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        async (blocks, messages, stream) => {
          const anthropic = {
            model: 'demo/echo',
            max_tokens: 8,
            stream,
            messages: [{ role: 'user', content: blocks }],
          };
          expect(await post('/v1/messages', anthropic), JSON.stringify(anthropic)).toBeLessThan(500);
          const chat = { model: 'demo/echo', stream, messages };
          expect(await post('/v1/chat/completions', chat), JSON.stringify(chat)).toBeLessThan(500);
        },
      ),
      RUNS,
    );
  });

  it('POST every /v1 endpoint with random JSON bodies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/v1/chat/completions', '/v1/messages', '/v1/embeddings'),
        json,
        async (path, body) => {
          expect(await post(path, body), JSON.stringify(body)).toBeLessThan(500);
        },
      ),
      RUNS,
    );
  });
});
