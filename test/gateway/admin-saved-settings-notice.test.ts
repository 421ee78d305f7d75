import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnHeadless } from '../support/headless-process.js';

const MASTER = 'gk-master-saved-settings-0123456789';

/**
 * Settings saved through the admin API replace the file's until reset. The start's warnings about
 * models and deployments then named `llm.allowed_models` against a file that said otherwise, with
 * nothing to say the file was not read: the start now says so first, and how to return to the file.
 */
describe('a start over settings saved through the admin API', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-saved-settings-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = { GATEHOUSE_DATA_DIR: dir, PROXY_MASTER_KEY: MASTER };

  it('says the file is not read for them, since when, and how to return to it', async () => {
    const first = await spawnHeadless(env);
    const admin = (path: string, body: unknown) =>
      fetch(`${first.gatewayUrl}${path}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await admin('/internal/models', { allowed_models: ['demo/echo'] })).status).toBe(200);
    expect((await admin('/internal/deployments', { deployments: [] })).status).toBe(200);
    // An operator who tightens pii.mode in the file and restarts must learn that the file is not read.
    expect((await admin('/internal/pii', { mode: 'mask' })).status).toBe(200);
    expect((await admin('/internal/content-policy', { blocked_patterns: ['secret project'] })).status).toBe(200);
    expect((await admin('/internal/cache', { enabled: true, ttl_seconds: 60 })).status).toBe(200);
    first.child.kill('SIGTERM');
    await first.exited();
    expect(first.output()).not.toContain('saved through the admin API at');
    expect(first.output()).not.toContain('were saved through PUT');

    const again = await spawnHeadless(env);
    again.child.kill('SIGTERM');
    await again.exited();
    const log = again.output();
    expect(log).toMatch(
      /configuration: llm: the model settings in force \(allowed models, aliases, caps\) were saved through the admin API at \d{4}-\d\d-\d\dT[\d:.]+Z; the file's llm section is not read until PUT \/internal\/models \{\\?"reset\\?": true\}/,
    );
    expect(log).toContain(
      'configuration: deployments: the list in force was saved through PUT /internal/deployments at',
    );
    expect(log).toMatch(
      /configuration: pii: the PII settings in force were saved through PUT \/internal\/pii at \d{4}-\d\d-\d\dT[\d:.]+Z; the file's pii section is not read until PUT \/internal\/pii \{\\?"reset\\?": true\}/,
    );
    expect(log).toContain(
      'configuration: content_policy: the content policy in force was saved through PUT /internal/content-policy at',
    );
    expect(log).toContain(
      'configuration: cache: the cache settings in force were saved through PUT /internal/cache at',
    );
  });
});
