import Anthropic from '@anthropic-ai/sdk';
import type { FastifyInstance } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI, { type APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/load.js';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/connection.js';
import { routesTestApp } from './support/routes-app.js';
import { AppError } from '../../src/server/http/errors.js';
import type { PolicyStage } from '../../src/server/gateway/pipeline/stages/policy-stages.js';

/**
 * The policy slots (rate limits, content policy, ...), exercised with
 * stand-in stages: their typed errors reach both SDKs as the right error classes, and every path is
 * still accounted.
 */
describe('policy stages slot into the pipeline', () => {
  let app: FastifyInstance;
  let database: DatabaseHandle;
  let dir: string;
  let url: string;
  let secret: string;
  const seen: string[] = [];

  const stage: PolicyStage = (ctx) => {
    seen.push(`${ctx.endpoint}:${ctx.model}`);
    const marker = JSON.stringify(ctx.body);
    if (marker.includes('too-fast'))
      throw new AppError('rate_limit_exceeded', 'requests per minute exceeded for this key', {
        headers: { 'retry-after': '7' },
      });
    if (marker.includes('forbidden-word')) throw new AppError('content_policy_violation', 'blocked pattern matched');
    if (marker.includes('crash')) throw new Error('stage exploded with internals');
    if (marker.includes('cached'))
      return {
        kind: 'json',
        usage: { promptTokens: 0, completionTokens: 0 },
        body: {
          id: 'cached',
          object: 'chat.completion',
          created: 0,
          model: ctx.model,
          choices: [{ index: 0, message: { role: 'assistant', content: 'from cache' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
        },
      };
    return undefined;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-policy-'));
    const { config } = loadConfig({ env: { GATEHOUSE_DATA_DIR: dir, GATEHOUSE_LOG_LEVEL: 'silent' } });
    database = openDatabase(join(dir, 'gatehouse.db'));
    app = await routesTestApp({
      config,
      database,
      masterKey: 'gk-master-policy-test-0123456789',
      policy: { rateLimit: stage },
    });
    url = await app.listen({ host: '127.0.0.1', port: 0 });
    const created = await app.inject({
      method: 'POST',
      url: '/internal/api-keys',
      headers: { authorization: 'Bearer gk-master-policy-test-0123456789' },
      payload: {},
    });
    secret = created.json().key;
  });
  afterAll(async () => {
    await app.close();
    database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ask = (content: string) =>
    new OpenAI({ baseURL: `${url}/v1`, apiKey: secret, maxRetries: 0 }).chat.completions.create({
      model: 'demo/echo',
      messages: [{ role: 'user', content }],
    });

  it('runs after model resolution, before routing', async () => {
    await ask('plain');
    expect(seen.at(-1)).toBe('chat:demo/echo');
  });

  it('rate_limit_exceeded: 429 with Retry-After, RateLimitError in both SDKs', async () => {
    const error = (await ask('too-fast').catch((e: unknown) => e)) as APIError;
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error.type).toBe('rate_limit_exceeded');
    expect(error.headers?.get('retry-after')).toBe('7');
    const anthropic = new Anthropic({ baseURL: url, apiKey: secret, maxRetries: 0 });
    const viaMessages = await anthropic.messages
      .create({ model: 'demo/echo', max_tokens: 5, messages: [{ role: 'user', content: 'too-fast' }] })
      .catch((e: unknown) => e);
    expect(viaMessages).toBeInstanceOf(Anthropic.RateLimitError);
  });

  it('content_policy_violation: 400 BadRequestError', async () => {
    const error = (await ask('forbidden-word').catch((e: unknown) => e)) as APIError;
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.type).toBe('content_policy_violation');
  });

  it('internal_error: 500 without internals', async () => {
    const error = (await ask('crash').catch((e: unknown) => e)) as APIError;
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect(error.type).toBe('internal_error');
    expect(error.message).not.toContain('exploded');
  });

  it('a stage may answer itself (a cache hit)', async () => {
    expect((await ask('cached')).choices[0]!.message.content).toBe('from cache');
  });

  it('accounts every outcome', async () => {
    const rows = (
      await app.inject({
        method: 'GET',
        url: '/internal/usage/logs?limit=20',
        headers: { authorization: 'Bearer gk-master-policy-test-0123456789' },
      })
    ).json().data;
    const statuses = rows.map((r: { status: number; error_type: string | null }) => `${r.status}:${r.error_type}`);
    expect(statuses).toEqual(
      expect.arrayContaining([
        '429:rate_limit_exceeded',
        '400:content_policy_violation',
        '500:internal_error',
        '200:null',
      ]),
    );
  });
});
