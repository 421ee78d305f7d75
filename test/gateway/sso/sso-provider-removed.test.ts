import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { ssoSessionRecordSchema } from '../../../src/shared/sso-api.js';
import { startTempServers, TEST_MASTER_KEY } from '../../support/temp-servers.js';
import { defaultAccounts, startSsoHarness } from '../support/sso-harness.js';

// A provider taken out of the configuration leaves sessions nothing can check any more: the next
// start ends them and revokes their keys, rather than letting the keys work unchecked until they expire.

const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-sso-removed-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const chat = (url: string, key: string) =>
  new OpenAI({ baseURL: `${url}/v1`, apiKey: key, maxRetries: 0 }).chat.completions.create({
    model: 'demo/echo',
    messages: [{ role: 'user', content: 'still here?' }],
  });

async function admin(url: string, path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${TEST_MASTER_KEY}` } });
  return { status: response.status, body: await response.json() };
}

describe('SSO sessions of a provider removed from the configuration', () => {
  it('are ended at the next start: the key is refused, the session says why, the audit log has both', async () => {
    const first = await startSsoHarness({}, defaultAccounts(), { GATEHOUSE_DATA_DIR: dataDir });
    let signedIn: { key: string; id: string; session_id: string };
    let otherKey: string;
    try {
      signedIn = await first.signIn('alice');
      otherKey = (await first.issueKey({ name: 'not-sso', scopes: ['chat'] })).key;
      await expect(chat(first.url, signedIn.key)).resolves.toBeDefined();
    } finally {
      await first.close();
    }

    // The same data directory, no sso section at all.
    const second = await startTempServers({}, { GATEHOUSE_DATA_DIR: dataDir });
    try {
      const refused = (await chat(second.gatewayUrl, signedIn.key).catch((error: unknown) => error)) as InstanceType<
        typeof OpenAI.AuthenticationError
      >;
      expect(refused).toBeInstanceOf(OpenAI.AuthenticationError);
      // Keys that did not come from the provider are untouched.
      await expect(chat(second.gatewayUrl, otherKey)).resolves.toBeDefined();

      const session = ssoSessionRecordSchema.parse(
        (await admin(second.gatewayUrl, `/internal/sso/sessions/${signedIn.session_id}`)).body,
      );
      expect(session).toMatchObject({
        status: 'ended',
        end_reason: "provider 'testidp' is no longer configured",
      });
      expect((await admin(second.gatewayUrl, `/internal/api-keys/${signedIn.id}`)).body.status).toBe('revoked');
      const audit = JSON.stringify((await admin(second.gatewayUrl, '/internal/audit?limit=50')).body);
      expect(audit).toContain('sso.session.end');
      expect(audit).toContain("provider 'testidp' is no longer configured");
    } finally {
      await second.stop();
    }

    // A start after that finds nothing left to end, and the key stays revoked.
    const third = await startTempServers({}, { GATEHOUSE_DATA_DIR: dataDir });
    try {
      const sessions = (await admin(third.gatewayUrl, '/internal/sso/sessions?include_ended=true')).body;
      expect(JSON.stringify(sessions)).toContain(signedIn.session_id);
      await expect(chat(third.gatewayUrl, signedIn.key)).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    } finally {
      await third.stop();
    }
  });
});
