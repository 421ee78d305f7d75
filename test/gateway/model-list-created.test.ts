import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';

/**
 * `created` of `/v1/models` (`created_at` in Anthropic's shape) is when the model was first allowed
 * on this gateway, kept in the database: the same after a restart, later for a model allowed later.
 * The clock is set by the test (only `Date`), so the instants differ without waiting.
 */
describe('the created time of listed models', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-model-created-'));
  const FIRST_START = Date.parse('2026-03-01T10:00:00Z');
  const NEXT_DAY = Date.parse('2026-03-02T10:00:00Z');
  let servers: TempServers | undefined;
  const admin = gatewayAdmin(() => servers!);
  /** Servers over the shared data directory (which outlives them). */
  const start = async (): Promise<TempServers> => {
    servers = await startTempServers({}, { GATEHOUSE_DATA_DIR: dataDir });
    return servers;
  };
  const listed = async (): Promise<Record<string, number>> => {
    const key = (await admin('POST', '/internal/api-keys', { scopes: ['chat'] })).body.key as string;
    const models = await new OpenAI({ baseURL: `${servers!.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 }).models.list();
    return Object.fromEntries(models.data.map((model) => [model.id, model.created]));
  };

  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(async () => {
    await servers?.stop();
    servers = undefined;
  });
  afterAll(() => {
    vi.useRealTimers();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is the first start for the models allowed then, in both shapes', async () => {
    vi.setSystemTime(FIRST_START);
    await start();
    expect(await listed()).toEqual({ 'demo/echo': FIRST_START / 1000, 'demo/embed': FIRST_START / 1000 });
    const key = (await admin('POST', '/internal/api-keys', { scopes: ['chat'] })).body.key as string;
    const anthropic = await new Anthropic({ baseURL: servers!.gatewayUrl, apiKey: key, maxRetries: 0 }).models.list();
    expect(anthropic.data.map((model) => model.created_at)).toEqual([
      new Date(FIRST_START).toISOString(),
      new Date(FIRST_START).toISOString(),
    ]);
  });

  it('stays the same after a restart a day later, and a model allowed then lists as newer', async () => {
    vi.setSystemTime(NEXT_DAY);
    await start();
    expect(await listed()).toEqual({ 'demo/echo': FIRST_START / 1000, 'demo/embed': FIRST_START / 1000 });
    const saved = await admin('PUT', '/internal/models', { allowed_models: ['demo/echo', 'demo/embed', 'demo/later'] });
    expect(saved.status).toBe(200);
    expect(await listed()).toEqual({
      'demo/echo': FIRST_START / 1000,
      'demo/embed': FIRST_START / 1000,
      'demo/later': NEXT_DAY / 1000,
    });
  });
});
