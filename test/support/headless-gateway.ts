import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { spawnHeadless, type HeadlessProcess } from './headless-process.js';
import { TEST_STORE_TOKEN } from './temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from './upstreams/index.js';

/** What {@link headlessGateway} gives a suite; read its fields inside tests (after `beforeAll`). */
export interface HeadlessGateway {
  readonly server: HeadlessProcess;
  readonly upstream: OpenAIUpstream;
  /** Calls the admin API with the master key. */
  admin(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
}

/**
 * A headless server (`npm run serve`, logging at info) in front of a local OpenAI upstream, for tests
 * that read what the process prints: started before the suite's tests, stopped after them.
 * `config` is the configuration file's content, given the upstream's address; the store token is
 * TEST_STORE_TOKEN.
 */
export function headlessGateway(options: {
  readonly masterKey: string;
  readonly upstreamKey: string;
  readonly config: (upstreamUrl: string) => Record<string, unknown>;
}): HeadlessGateway {
  let dir: string | undefined;
  let upstream: OpenAIUpstream | undefined;
  let server: HeadlessProcess | undefined;
  beforeAll(async () => {
    upstream = await startOpenAIUpstream({ apiKey: options.upstreamKey });
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-headless-'));
    const config = join(dir, 'gatehouse.json');
    writeFileSync(config, JSON.stringify(options.config(upstream.url)));
    server = await spawnHeadless({
      GATEHOUSE_CONFIG: config,
      GATEHOUSE_DATA_DIR: dir,
      PROXY_MASTER_KEY: options.masterKey,
      STORE_TOKEN: TEST_STORE_TOKEN,
      GATEHOUSE_LOG_LEVEL: 'info',
    });
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited();
    await upstream?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the headless gateway starts in beforeAll');
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get upstream() {
      return started(upstream);
    },
    async admin(method, path, body) {
      const response = await fetch(`${started(server).gatewayUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${options.masterKey}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
  };
}
