import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';

// A key's dollar budgets and a user's monthly one survive a restart: a new process over the same
// database sums the month's (and the day's) spend from the usage table.

const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-budget-periods-restart-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The demo model priced high enough that one short echo costs cents. */
const PRICED = { pricing: { 'demo/echo': { input_per_mtok: 1000, output_per_mtok: 1000 } } };

const start = (): Promise<TempServers> => startTempServers(PRICED, { GATEHOUSE_DATA_DIR: dataDir });

const chat = (url: string, key: string) =>
  new OpenAI({ baseURL: `${url}/v1`, apiKey: key, maxRetries: 0 }).chat.completions.create({
    model: 'demo/echo',
    max_tokens: 16,
    messages: [{ role: 'user', content: 'count my spend' }],
  });

type Status = { limit_type: string; used: number; limit: number };
const usedOf = (limits: readonly Status[], type: string): number | undefined =>
  limits.find((status) => status.limit_type === type)?.used;

describe('dollar budgets across a restart', () => {
  it('the spend of the day and of the month is rebuilt from the usage table', async () => {
    const first = await start();
    let keyId: string;
    let secret: string;
    let before: readonly Status[];
    try {
      const admin = gatewayAdmin(() => first);
      expect((await admin('POST', '/internal/users', { id: 'restart-spender', usd_monthly_budget: 100 })).status).toBe(
        201,
      );
      const issued = await admin('POST', '/internal/api-keys', {
        scopes: ['chat'],
        user: 'restart-spender',
        usd_daily_budget: 100,
        usd_monthly_budget: 100,
      });
      keyId = issued.body.id;
      secret = issued.body.key;
      await chat(first.gatewayUrl, secret);
      await chat(first.gatewayUrl, secret);
      before = (await admin('GET', `/internal/api-keys/${keyId}`)).body.limits;
      expect(usedOf(before, 'key_cost_daily')).toBeGreaterThan(0);
    } finally {
      await first.stop();
    }

    const second = await start();
    try {
      const admin = gatewayAdmin(() => second);
      const after = (await admin('GET', `/internal/api-keys/${keyId}`)).body.limits;
      for (const type of ['key_cost_daily', 'key_cost_monthly', 'user_cost_monthly'])
        expect(usedOf(after, type), type).toBe(usedOf(before, type));
      // Lowered below what was spent, the budget refuses the next request in the new process.
      const spent = usedOf(before, 'key_cost_monthly')!;
      await admin('PATCH', `/internal/api-keys/${keyId}`, { usd_daily_budget: null, usd_monthly_budget: spent });
      const error = (await chat(second.gatewayUrl, secret).catch((e: unknown) => e)) as InstanceType<
        typeof OpenAI.RateLimitError
      >;
      expect(error.status).toBe(429);
      expect(error.error).toMatchObject({ limit_type: 'key_cost_monthly' });
    } finally {
      await second.stop();
    }
  });

  it('a month of a key’s usage is read through its index, not by every row of the month', () => {
    const db = new Database(join(dataDir, 'gatehouse.db'), { readonly: true });
    try {
      for (const column of ['key_id']) {
        const plan = db
          .prepare(
            `EXPLAIN QUERY PLAN SELECT coalesce(sum(cost_usd), 0) FROM gateway_usage WHERE created_at >= ? AND ${column} = ?`,
          )
          .all(0, 'x') as { detail: string }[];
        expect(plan.map((row) => row.detail).join(' '), column).toMatch(
          new RegExp(`INDEX \\w+ \\(${column}=\\? AND created_at>\\?\\)`),
        );
      }
    } finally {
      db.close();
    }
  });
});
