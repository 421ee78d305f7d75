/**
 * Cost of the PII and content-policy stages per request (`node --import tsx bench/guardrails.bench.ts`):
 * the two policy stages and the restore of the answer, run in-process on a typical chat request,
 * with every stage off, and on (mask mode, two blocked patterns, a token limit), for a request without
 * PII and one with five entities. Prints p50 and p99 in microseconds.
 */
import { loadConfig } from '../src/server/config/load.js';
import { GuardrailsSettings } from '../src/server/gateway/guardrails/guardrails-settings.js';
import { piiRestoreStage, piiScrubStage } from '../src/server/gateway/guardrails/pii/pii-stages.js';
import { contentPolicyStage } from '../src/server/gateway/guardrails/policy/content-policy-stage.js';
import type { SettingsRepository } from '../src/server/gateway/model-registry/settings.repository.js';
import type { RequestContext } from '../src/server/gateway/pipeline/request-context.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20_000);
const noStore = { get: () => undefined, put: () => {}, delete: () => {} } as unknown as SettingsRepository;
const counter = { inc: () => {}, labels: () => ({ inc: () => {} }) };

function services(overrides: Record<string, unknown>) {
  const { config } = loadConfig({ env: {}, overrides });
  return {
    guardrails: new GuardrailsSettings(config, noStore),
    metrics: { piiEntities: counter, contentPolicyBlocks: counter },
  };
}

const SYSTEM = 'You are a helpful assistant for the support team. Answer briefly and politely.';
const PLAIN =
  'Can you summarise the ticket below and suggest a reply? The customer reports that the export fails after the update.';
const WITH_PII = `Customer jane.doe@example.com (phone +1 415 555 0132, card 4111 1111 1111 1111, host 192.168.10.20) reports that the export fails; reply to jane.doe@example.com.`;
const ANSWER = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'Sure: I will write to [EMAIL_1] today.' },
      finish_reason: 'stop',
    },
  ],
});

/** Per-request stage times in milliseconds, sorted. */
function run(svc: ReturnType<typeof services>, text: string): number[] {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    const ctx = {
      services: svc,
      endpoint: 'chat',
      model: 'gpt-4o-mini',
      body: {
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: text },
        ],
      },
    } as unknown as RequestContext;
    const start = performance.now();
    contentPolicyStage(ctx);
    piiScrubStage(ctx);
    if (piiRestoreStage.applies(ctx)) piiRestoreStage.text(ctx, ANSWER);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

function report(label: string, times: readonly number[]): void {
  const at = (q: number) => (times[Math.floor(q * (times.length - 1))]! * 1000).toFixed(1);
  console.log(`${label.padEnd(40)} p50 ${at(0.5).padStart(7)} µs   p99 ${at(0.99).padStart(7)} µs`);
}

const off = services({});
const on = services({
  pii: { mode: 'mask' },
  content_policy: { blocked_patterns: ['launch\\s+codes', '\\bforbidden\\b'], max_input_tokens: 100 },
});
// Warms the JIT on every path before anything is read.
for (const [svc, text] of [
  [off, PLAIN],
  [on, PLAIN],
  [on, WITH_PII],
] as const)
  run(svc, text);
console.log(`${ROUNDS} requests each`);
report('all off, no PII', run(off, PLAIN));
report('all off, PII in the request', run(off, WITH_PII));
report('all on, no PII', run(on, PLAIN));
report('all on, 5 entities (mask, restore)', run(on, WITH_PII));
