import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/load.js';
import { spawnHeadless } from '../support/headless-process.js';
import { selfSignedCertificate } from '../support/tls-certificate.js';

const EXAMPLE = 'resources/gatehouse.example.yaml';
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * The example with every commented-out setting turned on, as a user would: the `# ` before a key or a
 * list item is removed, leaving its indentation. The header (prose up to the first setting) stays.
 */
function uncommented(text: string): string {
  const lines = text.split('\n');
  const body = lines.findIndex((line) => !line.startsWith('#'));
  return lines
    .map((line, i) => (i < body ? line : line.replace(/^( *)# ( *)(?=[A-Za-z_"][\w".-]*:|- )/, '$1$2')))
    .join('\n');
}

describe('the example configuration file', () => {
  it('with every example turned on, starts the headless server and means what its comments say', async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-example-')));
    dirs.push(home);
    const file = join(home, 'gatehouse.yaml');
    // The placeholder keys (`sk-...`) replaced by keys, as a user does: a placeholder itself is refused.
    const text = uncommented(readFileSync(EXAMPLE, 'utf8')).replace(/\b(sk-(?:ant-)?)\.\.\./g, '$1example-0123456789');
    expect(text).not.toBe(readFileSync(EXAMPLE, 'utf8'));
    writeFileSync(file, text);
    // The example's certificate, where its relative paths point: beside the file.
    selfSignedCertificate(join(home, 'certs/gatehouse.lan.crt'), join(home, 'certs/gatehouse.lan.key'));
    const env = {
      HOME: home,
      GATEHOUSE_CONFIG: file,
      OPENAI_API_KEY: 'sk-example',
      CORP_OIDC_SECRET: 'corp-secret',
      GATEHOUSE_CI_TOKEN: 'ci-token-0123456789abcdef',
    };

    const { config } = loadConfig({ env });
    expect(config.server.data_dir).toBe(join(homedir(), '.local/share/gatehouse'));
    expect(config.llm.allowed_models).toEqual(['demo/echo', 'demo/embed', 'gpt-4o-mini', 'claude-sonnet-4-5']);
    expect(config.llm.model_aliases).toEqual({ fast: 'gpt-4o-mini' });
    expect(config.server.cors_origins).toEqual(['http://localhost:3000']);
    expect(config.server.tls).toEqual({
      cert_file: join(home, 'certs/gatehouse.lan.crt'),
      key_file: join(home, 'certs/gatehouse.lan.key'),
    });
    expect(config.llm.default_embedding_model).toBe('demo/embed');
    expect(config.providers.openai?.base_url).toBe('http://127.0.0.1:11434/v1');
    expect(config.deployments.map((d) => [d.model, d.upstream_model, d.weight])).toEqual([
      ['gpt-4o-mini', 'gpt-4o-mini', 3],
      ['gpt-4o-mini', 'llama3.1', 1],
      ['gpt-4o', 'my-gpt4o-deployment', 1],
    ]);
    expect(config.deployments[0]).toMatchObject({ id: 'openai-main', responses_api: 'native' });
    expect(config.deployments[2]).toMatchObject({ provider: 'azure', api_version: '2024-10-21' });
    expect(config.pricing['claude-sonnet-4-5']).toMatchObject({ cache_write_1h_per_mtok: 6, web_search_per_1k: 10 });
    expect(config.limits.models['gpt-4o-mini']).toEqual({ rpm_limit: 500, tpm_limit: 300000 });
    expect(config.sso.providers.corp).toMatchObject({ client_id: 'gatehouse', client_secret_env: 'CORP_OIDC_SECRET' });
    expect(config.store.auth.tokens).toEqual([
      { name: 'ci', token_env: 'GATEHOUSE_CI_TOKEN', verbs: ['read', 'write'], namespaces: ['team/*'] },
    ]);

    const server = await spawnHeadless(env);
    server.child.kill('SIGTERM');
    expect(await server.exited(), server.output()).toBe(0);
    expect(server.output()).toContain(`data in ${join(home, '.local/share/gatehouse')}\n`);
    expect(server.gatewayUrl).toMatch(/^https:/);
  });
});
