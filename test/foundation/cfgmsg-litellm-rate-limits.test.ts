import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { importLiteLlmConfig } from '../../src/server/config/litellm-import.js';
import { configFiles } from '../support/config-files.js';
import { SERVER_NODE_FLAGS } from '../support/headless-process.js';

const run = promisify(execFile);

/** A LiteLLM config whose deployments carry rpm and tpm: alone, several, and on only some. */
const RATED = `
model_list:
  - model_name: gpt-4o
    litellm_params: { model: openai/gpt-4o, api_key: os.environ/OPENAI_API_KEY, rpm: 500, tpm: 300000 }
  - model_name: gpt-4o-mini
    litellm_params: { model: openai/gpt-4o-mini, api_key: os.environ/OPENAI_API_KEY, rpm: 100 }
  - model_name: gpt-4o-mini
    litellm_params: { model: openai/gpt-4o-mini, api_key: os.environ/OPENAI_SECOND_KEY, rpm: 200, tpm: 1000 }
    model_info: { rpm: 300 }
  - model_name: claude
    litellm_params: { model: anthropic/claude-sonnet-4-5, api_key: os.environ/ANTHROPIC_API_KEY }
    model_info: { tpm: 50000 }
`;

describe('LiteLLM rpm and tpm as the limits of their model', () => {
  const files = configFiles('gatehouse-cfgmsg-litellm-');
  afterAll(() => files.cleanup());

  it("makes a model's limit from its one deployment's, the sum of several, and none where only some set one", () => {
    const imported = importLiteLlmConfig(parseYaml(RATED));
    expect(imported.config.limits).toEqual({
      models: {
        'gpt-4o': { rpm_limit: 500, tpm_limit: 300000 },
        'gpt-4o-mini': { rpm_limit: 300 },
        claude: { tpm_limit: 50000 },
      },
    });
    expect(imported.notes).toEqual([
      'model_list[0].litellm_params.rpm: became limits.models.gpt-4o.rpm_limit: 500, shared by every caller of gpt-4o',
      'model_list[0].litellm_params.tpm: became limits.models.gpt-4o.tpm_limit: 300000, shared by every caller of gpt-4o',
      expect.stringMatching(
        /^model_list\[1\]\.litellm_params\.rpm, model_list\[2\]\.litellm_params\.rpm: summed into limits\.models\.gpt-4o-mini\.rpm_limit: 300, shared by every caller of gpt-4o-mini; .*weights in proportion to their rpm/,
      ),
      'model_list[3].model_info.tpm: became limits.models.claude.tpm_limit: 50000, shared by every caller of claude',
    ]);
    expect(imported.unmapped).toEqual([
      { path: 'model_list[2].model_info.rpm', reason: 'litellm_params.rpm is used instead, as LiteLLM does' },
      {
        path: 'model_list[2].litellm_params.tpm',
        reason:
          "1 of the 2 deployments of gpt-4o-mini set no tpm, so LiteLLM does not limit the model's tokens as a whole; Gatehouse limits a model, not a deployment: set limits.models.gpt-4o-mini.tpm_limit if it should be limited",
      },
    ]);
  });

  it('writes a file that says what it mapped and passes npm run serve -- --check', async () => {
    const source = files.write(RATED, 'litellm.yaml');
    const out = `${files.folder()}/gatehouse.yaml`;
    const env = { ...process.env, OPENAI_API_KEY: 'sk-a', OPENAI_SECOND_KEY: 'sk-b', ANTHROPIC_API_KEY: 'sk-c' };
    const imported = await run(
      process.execPath,
      ['--import', 'tsx', 'src/server/config/import-litellm-cli.ts', source, '--out', out],
      { env, timeout: 20_000 },
    );
    expect(imported.stderr).toContain(
      'import:litellm: mapped: model_list[0].litellm_params.rpm: became limits.models.gpt-4o.rpm_limit: 500',
    );
    expect(imported.stderr).not.toContain('not in the deployment schema');
    const written = readFileSync(out, 'utf8');
    expect(written).toContain('# Converted, working differently:\n#   mapped: model_list[0].litellm_params.rpm:');
    const checked = await run(
      process.execPath,
      [...SERVER_NODE_FLAGS, '--import', 'tsx', 'src/server/cli.ts', '--check', '--config', out],
      { env: { ...env, GATEHOUSE_DATA_DIR: `${files.folder()}/data`, GATEHOUSE_CONFIG: '' }, timeout: 20_000 },
    );
    expect(checked.stdout).toContain(`gatehouse: configuration from ${out} is valid`);
  });
});
