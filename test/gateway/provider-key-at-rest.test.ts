import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/connection.js';
import { SettingsRepository } from '../../src/server/gateway/model-registry/settings.repository.js';
import { failedStart, spawnHeadless, type HeadlessProcess } from '../support/headless-process.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

const MASTER = 'gk-master-key-at-rest-0123456789';
const PROVIDER_KEY = 'sk-provider-at-rest-0123456789abcdef';

/**
 * Provider keys saved through `PUT /internal/deployments` were kept in the database in plain text, so
 * a copy or backup of gatehouse.db handed them out. They are now encrypted with `secrets.key`, kept
 * beside the database in the data folder, and the gateway still calls the provider with them.
 */
// Each test starts the server as a child process, twice: on a loaded machine that is slow.
describe('provider keys saved through the admin API, at rest', { timeout: 90_000 }, () => {
  let upstream: OpenAIUpstream;
  let dir: string;
  let running: HeadlessProcess | undefined;
  const env = () => ({ GATEHOUSE_DATA_DIR: dir, PROXY_MASTER_KEY: MASTER, GATEHOUSE_LOG_LEVEL: 'info' });
  const database = () => join(dir, 'gatehouse.db');
  const keyFile = () => join(dir, 'secrets.key');
  const deployment = () => ({
    id: 'local',
    model: 'at-rest',
    provider: 'openai',
    upstream_model: 'gpt-4o-mini',
    base_url: upstream.url,
  });

  beforeAll(async () => {
    upstream = await startOpenAIUpstream();
  });
  afterAll(() => upstream.close());
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-key-at-rest-'));
  });
  afterEach(async () => {
    await stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async () => {
    running = await spawnHeadless(env());
    return running;
  };
  const stop = async () => {
    if (running === undefined) return;
    running.child.kill('SIGTERM');
    await running.exited();
    running = undefined;
  };
  const admin = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${running!.gatewayUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, text: await response.text() };
  };
  /** The Authorization header the provider received for one chat through the gateway. */
  const providerAuthorization = async () => {
    const created = await admin('POST', '/internal/api-keys', { name: 'caller' });
    const client = new OpenAI({
      baseURL: `${running!.gatewayUrl}/v1`,
      apiKey: (JSON.parse(created.text) as { key: string }).key,
      maxRetries: 0,
    });
    upstream.reset();
    await client.chat.completions.create({ model: 'at-rest', messages: [{ role: 'user', content: 'hi' }] });
    return upstream.lastRequest()!.headers.authorization;
  };
  /** Every byte the database keeps on disk: the file and its write-ahead log. */
  const databaseBytes = () =>
    [database(), `${database()}-wal`]
      .filter((file) => existsSync(file))
      .map((file) => readFileSync(file).toString('latin1'))
      .join('');

  it('is absent from the database files, encrypted with secrets.key (0600), and still sent to the provider', async () => {
    await start();
    expect(existsSync(keyFile())).toBe(false);
    expect((await admin('PUT', '/internal/models', { allowed_models: ['at-rest'] })).status).toBe(200);
    const saved = await admin('PUT', '/internal/deployments', {
      deployments: [{ ...deployment(), api_key: PROVIDER_KEY }],
    });
    expect(saved.status).toBe(200);
    expect(saved.text).not.toContain(PROVIDER_KEY);
    expect(saved.text).toContain('"api_key_set":true');
    expect(databaseBytes()).not.toContain(PROVIDER_KEY);
    expect(databaseBytes()).toContain('enc:v1:');
    expect(statSync(keyFile()).mode & 0o777).toBe(0o600);
    expect(await providerAuthorization()).toBe(`Bearer ${PROVIDER_KEY}`);

    // Kept when the list is sent back without it, and across a restart.
    const listed = await admin('GET', '/internal/deployments');
    expect(listed.text).not.toContain(PROVIDER_KEY);
    expect((await admin('PUT', '/internal/deployments', { deployments: [deployment()] })).status).toBe(200);
    await stop();
    expect(databaseBytes()).not.toContain(PROVIDER_KEY);
    await start();
    expect(await providerAuthorization()).toBe(`Bearer ${PROVIDER_KEY}`);
    expect(running!.output()).not.toContain(PROVIDER_KEY);
  });

  it('saved in plain text by an earlier version is encrypted at start, and still sent', async () => {
    await start();
    expect((await admin('PUT', '/internal/models', { allowed_models: ['at-rest'] })).status).toBe(200);
    await stop();
    // What versions before encryption wrote: the key as it was sent.
    const old = openDatabase(database());
    new SettingsRepository(old.db).put('deployments', [{ ...deployment(), api_key: PROVIDER_KEY }], Date.now());
    old.close();
    expect(databaseBytes()).toContain(PROVIDER_KEY);

    await start();
    expect(running!.output()).toContain('encrypted 1 provider key(s) saved in plain text by an earlier version');
    expect(await providerAuthorization()).toBe(`Bearer ${PROVIDER_KEY}`);
    await stop();
    expect(databaseBytes()).not.toContain(PROVIDER_KEY);
    await start();
    expect(running!.output()).not.toContain('encrypted 1 provider key');
  });

  const savedThenStopped = async () => {
    await start();
    const saved = await admin('PUT', '/internal/deployments', {
      deployments: [{ ...deployment(), api_key: PROVIDER_KEY }],
    });
    expect(saved.status).toBe(200);
    await stop();
  };

  it('stops the start naming secrets.key when the data folder lost it', async () => {
    await savedThenStopped();
    unlinkSync(keyFile());
    const failed = await failedStart(env());
    expect(failed?.code).not.toBe(0);
    expect(failed?.stderr).toContain(`${keyFile()} is missing, and the database holds the provider keys (api_key)`);
    expect(failed?.stderr).toContain('put back the secrets.key of the data folder this database came from');
    // Nothing was made up in its place, and the saved keys are still there to be opened.
    expect(existsSync(keyFile())).toBe(false);
    expect(databaseBytes()).toContain('enc:v1:');
  });

  it('stops the start naming secrets.key when it is another key file', async () => {
    await savedThenStopped();
    writeFileSync(keyFile(), 'secrets-another-folder-0123456789abcdef\n', { mode: 0o600 });
    const failed = await failedStart(env());
    expect(failed?.code).not.toBe(0);
    expect(failed?.stderr).toContain(
      `${keyFile()} does not open the provider keys (api_key) of the deployments saved through PUT /internal/deployments`,
    );
    expect(failed?.stderr).not.toContain(PROVIDER_KEY);
  });
});
