import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { failedStart, SERVER_NODE_FLAGS, spawnHeadless } from '../support/headless-process.js';

const MASTER = 'gk-master-first-run-0123456789abcdef';

/** No provider key of the runner's own environment reaches these runs unless a test sets one. */
const NO_KEYS = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', OPENAI_BASE_URL: '', ANTHROPIC_BASE_URL: '' };

/**
 * Mistakes of a first run that `--check` and the start name, where they used to pass in silence: a
 * provider key set for a model that is not allowed yet, a misspelt `GATEHOUSE_*` variable, and an
 * example's placeholder key copied as it is.
 */
describe('first-run mistakes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-first-run-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** `--check` that succeeds: everything it printed on stdout and stderr. */
  async function check(env: NodeJS.ProcessEnv): Promise<string> {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [...SERVER_NODE_FLAGS, '--import', 'tsx', 'src/server/cli.ts', '--check'],
      {
        env: { ...process.env, ...NO_KEYS, GATEHOUSE_CONFIG: '', GATEHOUSE_DATA_DIR: join(dir, 'data'), ...env },
        timeout: 25_000,
      },
    );
    return stdout + stderr;
  }

  const config = (name: string, content: unknown): string => {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(content));
    return file;
  };

  it('--check names a provider key no allowed model or deployment uses, and is quiet once one does', async () => {
    const unused = await check({ OPENAI_API_KEY: 'sk-first-run-0123456789abcdef' });
    expect(unused).toContain(
      "gatehouse: OPENAI_API_KEY is set, but no allowed model or deployment uses openai: add the openai models to use to llm.allowed_models in the configuration file, on the UI's Models screen, or with PUT /internal/models",
    );
    expect(unused).toContain('configuration from defaults and environment is valid');
    const used = await check({
      OPENAI_API_KEY: 'sk-first-run-0123456789abcdef',
      GATEHOUSE_CONFIG: config('used.json', { llm: { allowed_models: ['demo/echo', 'gpt-4o-mini'] } }),
    });
    expect(used).not.toContain('OPENAI_API_KEY is set');
  });

  it('--check names a Gatehouse key exported as a provider key (npm run login in the gateway’s shell), where it would go', async () => {
    const model = { llm: { allowed_models: ['demo/echo', 'gpt-4o-mini'] } };
    const output = await check({
      OPENAI_API_KEY: 'gk-U4EkQPoWpSRCaQRPncJpldyulsSnl29JXf4oCwWwkyk',
      GATEHOUSE_CONFIG: config('login-key.json', model),
    });
    expect(output).toContain(
      "gatehouse: deployment gpt-4o-mini: its openai key is a key issued by Gatehouse (gk-...), which would be sent to https://api.openai.com/v1 as the provider's key",
    );
    expect(output).not.toContain('U4EkQPoWp');
    const provider = await check({
      OPENAI_API_KEY: 'sk-first-run-0123456789abcdef',
      GATEHOUSE_CONFIG: config('provider-key.json', model),
    });
    expect(provider).not.toContain('issued by Gatehouse');
  });

  it('--check names a misspelt GATEHOUSE_* variable with the one it meant, and leaves the user’s own alone', async () => {
    const output = await check({
      GATEHOUSE_DATA_DIRR: join(dir, 'elsewhere'),
      GATEHOUSE_LOGLEVEL: 'debug',
      GATEHOUSE_KEY: 'gk-a-key-for-the-sdk-examples',
    });
    expect(output).toContain(
      'gatehouse: GATEHOUSE_DATA_DIRR is set, but Gatehouse reads no such variable, so it changes nothing: did you mean GATEHOUSE_DATA_DIR?',
    );
    expect(output).toContain(
      'gatehouse: GATEHOUSE_LOGLEVEL is set, but Gatehouse reads no such variable, so it changes nothing: did you mean GATEHOUSE_LOG_LEVEL?',
    );
    expect(output).not.toContain('GATEHOUSE_KEY');
  });

  it('the start prints both warnings too', async () => {
    const server = await spawnHeadless({
      ...NO_KEYS,
      GATEHOUSE_CONFIG: '',
      GATEHOUSE_DATA_DIR: join(dir, 'started'),
      PROXY_MASTER_KEY: MASTER,
      ANTHROPIC_API_KEY: 'sk-ant-first-run-0123456789abcdef',
      GATEHOUSE_DATADIR: join(dir, 'elsewhere'),
    });
    server.child.kill('SIGTERM');
    await server.exited();
    const output = server.output();
    expect(output).toContain('ANTHROPIC_API_KEY is set, but no allowed model or deployment uses anthropic');
    expect(output).toContain('GATEHOUSE_DATADIR is set, but Gatehouse reads no such variable');
  });

  const placeholder = 'the ending "..." of a documentation placeholder (sk-..., sk-ant-...)';

  it('--check refuses a placeholder key in the environment, naming the variable', async () => {
    const failure = await failedStart(
      { ...NO_KEYS, GATEHOUSE_CONFIG: '', GATEHOUSE_DATA_DIR: join(dir, 'data'), OPENAI_API_KEY: 'sk-...' },
      25_000,
      ['--check'],
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain(`OPENAI_API_KEY (providers.openai.api_key): has ${placeholder}`);
  });

  it('--check refuses placeholder keys in the file, naming each key', async () => {
    const file = config('placeholders.json', {
      llm: { allowed_models: ['gpt-4o-mini', 'claude-sonnet-4-5'] },
      providers: { anthropic: { api_key: 'sk-ant-...' } },
      deployments: [{ model: 'gpt-4o-mini', provider: 'openai', api_key: 'sk-proj-abc…' }],
    });
    const failure = await failedStart(
      { ...NO_KEYS, GATEHOUSE_CONFIG: file, GATEHOUSE_DATA_DIR: join(dir, 'data') },
      25_000,
      ['--check'],
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain(`providers.anthropic.api_key: has ${placeholder}`);
    expect(failure?.stderr).toContain(`deployments[0].api_key has ${placeholder}`);
  });
});
