import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnHeadless } from '../support/headless-process.js';

const MASTER = 'gk-master-unserved-0123456789abcdef';

/**
 * An allowed model whose requests cannot succeed as configured started without a word: one no
 * provider serves (refused with model_not_allowed at every request), and one that goes to OpenAI's
 * public address with no key (refused there with 401, after the retries). The log names each at start.
 */
describe('allowed models nothing can serve', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-unserved-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are named in the log at start, with what to do', async () => {
    const file = join(dir, 'gatehouse.json');
    writeFileSync(
      file,
      JSON.stringify({
        llm: { allowed_models: ['gpt-4o-mini', 'llama3.2', 'ollama/qwen', 'demo/echo', 'local'] },
        deployments: [{ model: 'local', provider: 'openai_compatible', base_url: 'http://127.0.0.1:9/v1' }],
      }),
    );
    const server = await spawnHeadless({
      GATEHOUSE_CONFIG: file,
      GATEHOUSE_DATA_DIR: dir,
      PROXY_MASTER_KEY: MASTER,
      OPENAI_API_KEY: '',
    });
    server.child.kill('SIGTERM');
    await server.exited();
    const log = server.output();
    expect(log).toContain(
      "configuration: llm.allowed_models: 'gpt-4o-mini' goes to openai's public address with no key, which refuses its calls: set OPENAI_API_KEY or providers.openai.api_key",
    );
    expect(log).toContain(
      "configuration: llm.allowed_models: 'llama3.2' names no provider and no deployment serves it, so its requests are refused",
    );
    // A provider on this machine takes no key; the demo and a configured deployment are served.
    for (const served of ['ollama/qwen', 'demo/echo', "'local'"]) expect(log).not.toContain(served);
  });
});
