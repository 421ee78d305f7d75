import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettingsRepository } from '../../src/server/gateway/model-registry/settings.repository.js';
import { withoutCredentials } from '../../src/shared/gateway-api.js';
import { startTempServers, TEST_MASTER_KEY } from '../support/temp-servers.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

// Deployment base_url: http(s) only, never credentials in it (named as such, or key-shaped under any
// name or in the path), and never shown with credentials.

const PASSWORD = 'hunter2-deployment-password';
const WITH_CREDENTIALS = `https://alice:${PASSWORD}@llm.example.test/v1`;
// Keys pasted into an address under a name that is no credential's, or into its path.
const OPENAI_KEY = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123';
const ANTHROPIC_KEY = 'sk-ant-api03-abcdefghijklmnop0123456789';
const GOOGLE_KEY = 'AIzaSyA1234567890abcdefghijklmn';
const GATEHOUSE_KEY = 'gk-U4EkQPoWpSRCaQRPncJpldyulsSnl29JXf4oCwWwkyk';
const GITHUB_TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

describe('deployment base_url through the admin API', () => {
  let harness: GatewayHarness;
  beforeAll(async () => {
    harness = await startGatewayHarness();
  });
  afterAll(async () => harness.close());
  const put = (base_url: string) =>
    harness.admin('PUT', '/internal/deployments', {
      deployments: [{ id: 'local', model: 'gpt-4o-mini', provider: 'openai', base_url }],
    });

  it('refuses credentials in the address without echoing them', async () => {
    const before = (await harness.admin('GET', '/internal/deployments')).body;
    const response = await put(WITH_CREDENTIALS);
    expect(response.status).toBe(400);
    expect(response.body.error.type).toBe('invalid_request_error');
    expect(response.body.error.message).toBe(
      'deployments[0].base_url must not contain credentials (user:password@), got https://llm.example.test/v1; put the key in api_key',
    );
    expect(JSON.stringify(response.body)).not.toContain(PASSWORD);
    expect(JSON.stringify(response.body)).not.toContain('alice');
    expect((await harness.admin('GET', '/internal/deployments')).body).toEqual(before);
    // A user name alone is credentials too.
    expect((await put('http://bob@127.0.0.1:11434/v1')).status).toBe(400);
  });

  it('refuses a credential in the query, naming the parameter but never its value', async () => {
    for (const [address, parameter] of [
      [`https://llm.example.test/v1?key=${PASSWORD}`, 'key'],
      [`https://llm.example.test/v1?api-version=2024-10-21&api-key=${PASSWORD}`, 'api-key'],
      [`https://llm.example.test/v1?access_token=${PASSWORD}`, 'access_token'],
      [`https://fn.example.test/api?code=${PASSWORD}`, 'code'],
      [`https://bucket.example.test/v1?X-Amz-Signature=${PASSWORD}`, 'X-Amz-Signature'],
      [`https://llm.example.test/v1?accessToken=${PASSWORD}`, 'accessToken'],
      [`https://llm.example.test/v1?clientSecret=${PASSWORD}`, 'clientSecret'],
    ]) {
      const response = await put(address!);
      expect(response.status, address).toBe(400);
      expect(response.body.error.message).toMatch(
        new RegExp(
          `^deployments\\[0\\]\\.base_url must not carry a credential in its query \\(${parameter}=\\.\\.\\.\\), got https://[a-z.]+/(v1|api); put the key in api_key$`,
        ),
      );
      expect(JSON.stringify(response.body)).not.toContain(PASSWORD);
    }
    // `code` and `auth` are credentials as whole names only.
    expect((await put('https://llm.example.test/v1?country_code=fr')).status).toBe(200);
    // A query that is not a credential is kept, and shown as written.
    const versioned = await put('https://llm.example.test/v1?api-version=2024-10-21');
    expect(versioned.status).toBe(200);
    expect(versioned.body.data[0].base_url).toBe('https://llm.example.test/v1?api-version=2024-10-21');
  });

  it('accepts only http and https', async () => {
    for (const address of ['ftp://files.example.test/v1', 'file:///etc/passwd', 'javascript:alert(1)']) {
      const response = await put(address);
      expect(response.status, address).toBe(400);
      expect(response.body.error.message).toMatch(/^deployments\[0\]\.base_url must be an http:\/\/ or https:\/\/ URL/);
    }
    const unparsable = await put(`not a url ${PASSWORD}`);
    expect(unparsable.body.error.message).toBe('deployments[0].base_url must be an absolute http:// or https:// URL');
    expect(unparsable.body.error.message).not.toContain(PASSWORD);
    const fine = await put('http://127.0.0.1:11434/v1');
    expect(fine.status).toBe(200);
    expect(fine.body.data[0].base_url).toBe('http://127.0.0.1:11434/v1');
  });

  it('refuses a key in the query under a name that is no credential, without echoing it', async () => {
    for (const key of [OPENAI_KEY, ANTHROPIC_KEY, GOOGLE_KEY, GATEHOUSE_KEY, GITHUB_TOKEN]) {
      const response = await put(`http://127.0.0.1:19510/v1?x=${key}`);
      expect(response.status, key).toBe(400);
      expect(response.body.error.message).toBe(
        'deployments[0].base_url must not carry a credential in its query (x=**** looks like a key), ' +
          'got http://127.0.0.1:19510/v1; put the key in api_key',
      );
      expect(JSON.stringify(response.body)).not.toContain(key.slice(8));
    }
  });

  it('refuses a key in the path, percent-encoded too, showing the path masked', async () => {
    for (const path of [`/${OPENAI_KEY}/v1`, `/${OPENAI_KEY.replace('s', '%73')}/v1`]) {
      const response = await put(`http://127.0.0.1:19510${path}`);
      expect(response.status, path).toBe(400);
      expect(response.body.error.message).toBe(
        'deployments[0].base_url must not carry a credential in its path (**** looks like a key), ' +
          'got http://127.0.0.1:19510/****/v1; put the key in api_key',
      );
      expect(JSON.stringify(response.body)).not.toContain(OPENAI_KEY.slice(8));
    }
  });

  it('keeps ordinary provider addresses', async () => {
    for (const address of [
      'https://x.openai.azure.com/openai/deployments/gpt-4o-2024-08-06?api-version=2024-08-01-preview',
      'https://gateway.ai.cloudflare.com/v1/0123456789abcdef0123456789abcdef/gw/openai',
      'https://generativelanguage.googleapis.com/v1beta/openai',
      'http://127.0.0.1:11434/sk-learn/v1',
    ]) {
      const response = await put(address);
      expect(response.status, address).toBe(200);
      expect(response.body.data[0].base_url).toBe(address);
    }
  });

  it('quotes a host-less scheme as it was sent', async () => {
    const response = await put('JavaScript:alert(1)');
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe(
      "deployments[0].base_url must be an http:// or https:// URL, got the scheme 'JavaScript:'",
    );
  });
});

describe('deployment base_url in the configuration file', () => {
  it('stops the start naming the key, without the credential', async () => {
    const start = startTempServers({ deployments: [{ model: 'gpt-4o-mini', base_url: WITH_CREDENTIALS }] });
    await expect(start).rejects.toThrow(/deployments\[0\]\.base_url: must not contain credentials/);
    const error = await start.catch((e: Error) => e);
    expect(String(error)).not.toContain(PASSWORD);
    await expect(startTempServers({ providers: { openai: { base_url: 'ftp://x.example.test' } } })).rejects.toThrow(
      "providers.openai.base_url: must be an http:// or https:// URL, got 'ftp://x.example.test/'",
    );
    // The address is shown, never a credential in it.
    const ftp = await startTempServers({
      providers: { openai: { base_url: `ftp://user:${PASSWORD}@x.example.test/v1?token=${PASSWORD}` } },
    }).catch((e: Error) => e);
    expect(String(ftp)).toContain("got 'ftp://x.example.test/v1'");
    expect(String(ftp)).not.toContain(PASSWORD);
  });

  it('refuses credentials in OPENAI_BASE_URL by the key it lands in', async () => {
    const start = startTempServers({}, { OPENAI_BASE_URL: WITH_CREDENTIALS });
    await expect(start).rejects.toThrow(
      /OPENAI_BASE_URL \(providers\.openai\.base_url\): must not contain credentials/,
    );
    expect(String(await start.catch((e: Error) => e))).not.toContain(PASSWORD);
  });
});

describe('deployment base_url shown by the admin API', () => {
  it('strips credentials from a list saved before they were refused', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-legacy-url-'));
    try {
      const first = await startTempServers({}, { GATEHOUSE_DATA_DIR: dataDir });
      new SettingsRepository(first.database.db).put(
        'deployments',
        [
          { id: 'legacy', model: 'gpt-4o-mini', provider: 'openai', base_url: WITH_CREDENTIALS },
          {
            id: 'keyed',
            model: 'gpt-4o',
            provider: 'openai',
            base_url: `https://q.example.test/v1?key=${PASSWORD}&v=2`,
          },
          {
            id: 'in-query',
            model: 'gpt-4o-mini',
            provider: 'openai',
            base_url: `https://q.example.test/v1?x=${OPENAI_KEY}&v=2`,
          },
          { id: 'in-path', model: 'gpt-4o', provider: 'openai', base_url: `https://p.example.test/${GOOGLE_KEY}/v1` },
        ],
        Date.now(),
      );
      await first.close();
      const second = await startTempServers({}, { GATEHOUSE_DATA_DIR: dataDir });
      try {
        const response = await fetch(`${second.gatewayUrl}/internal/deployments`, {
          headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
        });
        const text = await response.text();
        expect(response.status).toBe(200);
        expect(text).not.toContain(PASSWORD);
        expect(JSON.parse(text).data[0]).toMatchObject({ id: 'legacy', base_url: 'https://llm.example.test/v1' });
        expect(JSON.parse(text).data[1]).toMatchObject({
          id: 'keyed',
          base_url: 'https://q.example.test/v1?key=****&v=2',
        });
        // Key-shaped values under any name, or in the path, are masked too.
        expect(text).not.toContain(OPENAI_KEY.slice(8));
        expect(text).not.toContain(GOOGLE_KEY.slice(6));
        expect(JSON.parse(text).data[2]).toMatchObject({ base_url: 'https://q.example.test/v1?x=****&v=2' });
        expect(JSON.parse(text).data[3]).toMatchObject({ base_url: 'https://p.example.test/****/v1' });
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('withoutCredentials leaves ordinary addresses as written', () => {
    expect(withoutCredentials('https://h.example.test/v1?api-version=1&sig=abc')).toBe(
      'https://h.example.test/v1?api-version=1&sig=****',
    );
    expect(withoutCredentials('not a url?token=abc')).toBe('not a url');
    expect(withoutCredentials('https://h.example.test/v1#key=abc')).toBe('https://h.example.test/v1');
    expect(withoutCredentials('https://api.openai.com/v1')).toBe('https://api.openai.com/v1');
    expect(withoutCredentials('http://127.0.0.1:11434')).toBe('http://127.0.0.1:11434');
    expect(withoutCredentials('https://u:p@h.example.test/v1?api-version=1')).toBe(
      'https://h.example.test/v1?api-version=1',
    );
    expect(withoutCredentials('https://u:p a@h .example.test/')).toBe('https://h .example.test/');
  });
});
