import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';
import {
  DEADLINE,
  deployment,
  startDeadlineGateway,
  UPSTREAM_KEY,
  type DeadlineGateway,
} from './deadlinefirst-gateway.js';
/** The deployments' own timeout_ms: well above a few cuts of 300 or 500 ms, below those and one of as long. */
const TIMEOUT_MS = 1800;

/**
 * Attempts a request's deadline cut are recorded in the deployment's health (a count and the last
 * time). By itself a cut is no failure: a client's short deadline leaves a healthy deployment alone.
 * Cuts add up their waits until the deployment next answers; once that silence reaches its own
 * timeout_ms, cuts count as timeouts, so a hung deployment every deadline cuts still cools down.
 */
describe('deadline cuts in the deployment health', () => {
  let hung: Server;
  let good: OpenAIUpstream;
  let slow: OpenAIUpstream;
  let gateway: DeadlineGateway;
  let client: OpenAI;

  beforeAll(async () => {
    // Takes requests and never answers.
    hung = createServer((request) => request.resume());
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    good = await startOpenAIUpstream({ apiKey: UPSTREAM_KEY });
    slow = await startOpenAIUpstream({ apiKey: UPSTREAM_KEY });
    const hungUrl = `http://127.0.0.1:${(hung.address() as AddressInfo).port}/v1`;
    gateway = await startDeadlineGateway(
      [
        deployment('hung', 'hung-model', hungUrl, 1_000_000, TIMEOUT_MS),
        deployment('good', 'hung-model', good.url, 0.000001, TIMEOUT_MS),
        deployment('slow', 'slow-model', slow.url, 1, TIMEOUT_MS),
      ],
      { max_retries: 0, cooldown_after_failures: 2, cooldown_ms: 60_000 },
    );
    client = gateway.client;
  });
  afterAll(async () => {
    await gateway.servers.stop();
    await Promise.all([good.close(), slow.close()]);
    hung.closeAllConnections();
    await new Promise((resolve) => hung.close(resolve));
  });

  /** The health view's entry of a deployment, as the admin API answers it. */
  const healthOf = async (id: string): Promise<Record<string, unknown>> =>
    ((await gateway.admin('GET', '/internal/deployments/health')).body.data as Array<Record<string, unknown>>).find(
      (entry) => entry.id === id,
    )!;

  /** A chat request with a 500 ms deadline (null: none); the status, and the deployment that answered or the failure's message. */
  const ask = async (model: string, deadlineMs: number | null = 500) => {
    const answer = await client.chat.completions
      .create(
        { model, messages: [{ role: 'user', content: 'hello' }] },
        deadlineMs === null ? {} : { headers: { [DEADLINE]: String(deadlineMs) } },
      )
      .withResponse()
      .catch((error: unknown) => error as InstanceType<typeof OpenAI.APIError>);
    return 'response' in answer
      ? { status: 200, deployment: answer.response.headers.get('x-gateway-deployment') }
      : { status: answer.status, message: answer.message };
  };

  it('records every cut, and counts none of a healthy deployment that answers between them', async () => {
    slow.setDefault({ delayMs: 1000 });
    for (let round = 0; round < 3; round += 1) {
      // Two cuts (1000 ms of silence), less than its timeout_ms, then an answer: the silence starts over.
      for (let cut = 0; cut < 2; cut += 1) expect((await ask('slow-model')).status).toBe(502);
      expect(await ask('slow-model', null)).toEqual({ status: 200, deployment: 'slow' });
    }
    const health = await healthOf('slow');
    expect(health).toMatchObject({ state: 'healthy', consecutive_failures: 0, failures: 0, successes: 3 });
    expect(await healthOf('slow')).toMatchObject({ deadline_cuts: 6, failures: 0 });
    expect(Date.parse((await healthOf('slow')).last_deadline_cut_at as string)).toBeGreaterThan(Date.now() - 10_000);
  });

  it('counts the cuts of a hung deployment once they add up to its timeout_ms, so it cools down', async () => {
    // Three short cuts: under 1000 ms of silence, well below its timeout_ms: no failure yet.
    for (let cut = 0; cut < 3; cut += 1) expect((await ask('hung-model', 300)).status).toBe(502);
    expect(await healthOf('hung')).toMatchObject({ consecutive_failures: 0, failures: 0 });
    expect((await healthOf('hung')).deadline_cuts).toBe(3);

    // A cut as long as its timeout_ms brings the silence past it: a timeout of the deployment, and so
    // is the next cut, however short.
    expect((await ask('hung-model', TIMEOUT_MS)).status).toBe(502);
    const counted = await healthOf('hung');
    expect(counted).toMatchObject({ state: 'degraded', consecutive_failures: 1, failures: 1 });
    expect(counted.last_error).toContain('no answer through request deadlines for');
    expect(counted.last_error).toContain(`at least its timeout_ms (${TIMEOUT_MS})`);
    expect((await ask('hung-model', 300)).status).toBe(502);
    expect(await healthOf('hung')).toMatchObject({ state: 'cooling_down', consecutive_failures: 2 });

    // Tried last now: the next request is answered in time by the other deployment.
    expect(await ask('hung-model')).toEqual({ status: 200, deployment: 'good' });
    expect((await healthOf('hung')).deadline_cuts).toBe(5);
  });
});
