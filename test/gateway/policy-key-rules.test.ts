import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnHeadless, issueKey } from '../support/headless-process.js';

const MASTER = 'gk-master-key-rules-0123456789abcdef';

/**
 * Rules of the configuration file for API keys (`pii.keys`, `content_policy.keys`, `cache.keys`,
 * `rag.keys`) that name no key apply to no request. Keys live in the database, so the file cannot be
 * refused for them (a fresh data folder has none); the gateway now says so in its log at start, naming
 * each rule, where before such a typo passed without a word.
 */
describe('configuration rules for keys that do not exist', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-key-rules-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const start = async (config: Record<string, unknown>) => {
    const file = join(dir, 'gatehouse.json');
    writeFileSync(file, JSON.stringify(config));
    return spawnHeadless({ GATEHOUSE_CONFIG: file, GATEHOUSE_DATA_DIR: dir, PROXY_MASTER_KEY: MASTER });
  };
  const stop = async (server: Awaited<ReturnType<typeof start>>) => {
    server.child.kill('SIGTERM');
    await server.exited();
  };

  it('are named in the log at start; rules for existing keys (by id, or by name for RAG) are not', async () => {
    const first = await start({});
    const { id } = await issueKey(first.gatewayUrl, MASTER, { name: 'support-bot' });
    await stop(first);

    const second = await start({
      pii: { keys: { [id]: { mode: 'redact' }, key_typo: { mode: 'off' } } },
      content_policy: { keys: { key_gone: { max_input_tokens: 0 } } },
      cache: { keys: { [id]: { enabled: false } } },
      rag: { keys: { 'support-bot': ['faq'], 'support-bto': ['faq'] } },
    });
    // Read once the process has ended: its stdout and stderr arrive through separate pipes, in no set order.
    await stop(second);
    const log = second.output();
    expect(log).toContain(
      "configuration: pii.keys.key_typo: no API key with id 'key_typo', so this rule applies to no request",
    );
    expect(log).toContain("configuration: content_policy.keys.key_gone: no API key with id 'key_gone'");
    expect(log).toContain('configuration: rag.keys.support-bto: no API key with that id or name');
    expect(log).not.toContain(`pii.keys.${id}`);
    expect(log).not.toContain(`cache.keys.${id}`);
    expect(log).not.toContain('rag.keys.support-bot');
  });
});
