import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyExampleCode } from '../../src/renderer/src/features/gateway/key-example-code.js';
import type { KeyExample } from '../../src/renderer/src/features/gateway/key-example.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

const run = promisify(execFile);
const REPO = join(import.meta.dirname, '..', '..');

/**
 * The snippets a new key's dialog shows work as pasted: each is run as written (Node with the
 * official `openai` package, curl in a shell, the environment variables under both providers' SDKs)
 * against a running gateway. Python's is not run here: this machine has no Python `openai` package.
 */
describe('the key dialog’s example snippets, run as pasted', () => {
  let h: GatewayHarness;
  let secret: string;
  let scratch: string;
  // The child processes see only these variables: none of the test's own provider settings.
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
  beforeAll(async () => {
    h = await startGatewayHarness();
    secret = (await h.issueKey({ name: 'snippets', scopes: ['chat', 'responses', 'embeddings'] })).key;
    // Inside the repository, so the snippets' imports find its node_modules.
    scratch = mkdtempSync(join(REPO, 'node_modules', '.snippets-'));
  });
  afterAll(async () => {
    rmSync(scratch, { recursive: true, force: true });
    await h.close();
  });

  const node = async (example: KeyExample): Promise<string> => {
    const file = join(scratch, `${example.endpoint}.mjs`);
    writeFileSync(file, keyExampleCode('node', h.url, secret, example));
    return (await run(process.execPath, [file], { env, cwd: scratch })).stdout.trim();
  };

  it('Node: chat, responses and embeddings print what the gateway answered', async () => {
    expect(await node({ endpoint: 'chat', model: 'demo/echo' })).toBe('Hello');
    expect(await node({ endpoint: 'responses', model: 'demo/echo' })).toBe('Hello');
    expect(Number(await node({ endpoint: 'embeddings', model: 'demo/embed' }))).toBeGreaterThan(0);
  });

  it('curl: the command answers the chat completion', async () => {
    const code = keyExampleCode('curl', h.url, secret, { endpoint: 'chat', model: 'demo/echo' });
    const { stdout } = await run('bash', ['-c', code], { env });
    expect(JSON.parse(stdout).choices[0].message.content).toBe('Hello');
  });

  it('Environment: both providers’ SDKs, made without options, reach the gateway with the key', async () => {
    const code = keyExampleCode('env', h.url, secret, { endpoint: 'chat', model: 'demo/echo' });
    const script = [
      "import OpenAI from 'openai';",
      "import Anthropic from '@anthropic-ai/sdk';",
      "const chat = await new OpenAI().chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'Hi' }] });",
      "const message = await new Anthropic().messages.create({ model: 'demo/echo', max_tokens: 20, messages: [{ role: 'user', content: 'Ho' }] });",
      'console.log(chat.choices[0].message.content, message.content[0].text);',
    ].join('\n');
    writeFileSync(join(scratch, 'env.mjs'), script);
    const { stdout } = await run('bash', ['-c', `${code}\nexec node env.mjs`], { env, cwd: scratch });
    expect(stdout.trim()).toBe('Hi Ho');
  });
});
