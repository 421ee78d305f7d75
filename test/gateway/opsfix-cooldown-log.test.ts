import { describe, expect, it } from 'vitest';
import { DeploymentHealthTracker } from '../../src/server/gateway/model-registry/deployment-health.js';
import type { Deployment } from '../../src/server/gateway/providers/types.js';

const deployment: Deployment = {
  id: 'primary',
  model: 'pooled',
  provider: 'openai',
  upstreamModel: 'gpt-4o-mini',
  baseUrl: 'http://127.0.0.1:9/v1',
  apiKey: 'sk-opsfix-0123456789abcdef',
  weight: 1,
  timeoutMs: 1000,
  maxRetries: 0,
  explicit: true,
};

/**
 * A deployment entering or leaving its cooldown changes where requests go: the log says so, once per
 * change (not once per failure), with what failed and until when, never the key.
 */
describe('the log of a deployment cooling down', () => {
  it('warns once as the cooldown starts and says once when the deployment answers again', () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const lines: Array<{ level: string; message: string; details: Record<string, unknown> }> = [];
    const health = new DeploymentHealthTracker(
      () => now,
      { afterFailures: 2, ms: 30_000 },
      {
        warn: (message, details) => lines.push({ level: 'warn', message, details }),
        info: (message, details) => lines.push({ level: 'info', message, details }),
      },
    );
    health.failure(deployment, 5, 500, 'openai upstream returned 500: boom');
    expect(lines).toEqual([]);
    health.failure(deployment, 5, 503, 'openai upstream returned 503: key sk-opsfix-0123456789abcdef refused');
    // Failures during the cooldown change nothing to say.
    health.failure(deployment, 5, 503, 'openai upstream returned 503: again');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'warn',
      details: { deployment: 'primary', consecutive_failures: 2, cooldown_until: '2026-01-01T00:00:30.000Z' },
    });
    expect(lines[0]!.message).toContain('deployment primary is tried last until 2026-01-01T00:00:30.000Z');
    expect(lines[0]!.message).toContain('after 2 failure(s) in a row: openai upstream returned 503');
    expect(JSON.stringify(lines)).not.toContain('sk-opsfix-0123456789abcdef');

    now += 31_000;
    health.success(deployment, 5);
    health.success(deployment, 5);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toEqual({
      level: 'info',
      message: 'deployment primary answered again; its cooldown is over',
      details: { deployment: 'primary' },
    });
  });

  it('says nothing for failures that start no cooldown, nor for successes of a deployment never cooled down', () => {
    const lines: unknown[] = [];
    const health = new DeploymentHealthTracker(
      Date.now,
      { afterFailures: 3, ms: 30_000 },
      {
        warn: (...args) => lines.push(args),
        info: (...args) => lines.push(args),
      },
    );
    health.failure(deployment, 5, 500, 'boom');
    health.success(deployment, 5);
    health.failure(deployment, 5, 400, 'bad request', false);
    expect(lines).toEqual([]);
  });
});
