import type { UsageEntry } from '../../../src/server/gateway/accounting/usage-entry.js';

/** A usage row numbered `n` (request id `r<n>`, a second apart), as the pipeline records one. */
export const usageEntry = (n: number, overrides: Partial<UsageEntry> = {}): UsageEntry => ({
  requestId: `r${n}`,
  createdAt: 1_700_000_000_000 + n * 1000,
  keyId: 'k1',
  ownerUser: 'u',
  team: 't',
  endpoint: 'chat',
  model: 'm',
  requestedModel: 'm',
  deployment: 'd',
  provider: 'p',
  promptTokens: 10,
  completionTokens: 5,
  costUsd: 0.001,
  latencyMs: 12,
  status: 200,
  errorType: null,
  stream: false,
  cached: false,
  admitted: true,
  ...overrides,
});
