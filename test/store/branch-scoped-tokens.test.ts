import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failedStart } from '../support/headless-process.js';
import { startTempServers, TEST_STORE_TOKEN, type TempServers } from '../support/temp-servers.js';

// "One agent, one branch": a store token whose `branches` limit what it may change, over real HTTP
// with tokens read from the configuration as a deployment has them.

const AGENT = 'st-agent-writer-0123456789abcdef';
const AGENT_ADMIN = 'st-agent-admin-0123456789abcdef';
const EVERY_BRANCH = 'st-every-branch-0123456789abcdef';
const NAMESPACE = 'agents/a1';
const PATTERNS = '"agent-*", "scratch"';

describe('a store token limited to branches', () => {
  let servers: TempServers;
  const call = async (method: 'GET' | 'POST' | 'DELETE', path: string, token: string, body?: unknown) => {
    const response = await fetch(`${servers.storeUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const apply = (token: string, branch: string | undefined, content: string) =>
    call('POST', '/v1/apply', token, {
      scope: { namespace: NAMESPACE, ...(branch === undefined ? {} : { branch }) },
      documents: [{ key: 'state.json', content }],
    });
  const refusedOn = (answer: { status: number; body: any }, branch: string) => {
    expect(answer.status).toBe(403);
    expect(answer.body.error.message).toBe(
      `token "agent" may not change branch "${branch}": it may change only branches ${PATTERNS}`,
    );
  };

  beforeAll(async () => {
    const grant = { verbs: ['read', 'write'], namespaces: ['agents/*'], branches: ['agent-*', 'scratch'] };
    servers = await startTempServers({
      store: {
        auth: {
          tokens: [
            { name: 'agent', token: AGENT, ...grant },
            { name: 'agent-admin', token: AGENT_ADMIN, ...grant, verbs: ['read', 'write', 'admin'] },
            { name: 'every-branch', token: EVERY_BRANCH, ...grant, branches: ['*'] },
          ],
        },
      },
    });
    expect((await apply(TEST_STORE_TOKEN, 'main', 'main 1')).status).toBe(200);
    expect((await apply(TEST_STORE_TOKEN, 'main', 'main 2')).status).toBe(200);
  });
  afterAll(async () => servers?.stop());

  it('refuses a write to a branch outside its patterns, main by default, naming token, branch and patterns', async () => {
    refusedOn(await apply(AGENT, 'main', 'agent on main'), 'main');
    refusedOn(await apply(AGENT, undefined, 'agent on the default branch'), 'main');
    refusedOn(await apply(AGENT, 'agent', 'a prefix matches only what follows it'), 'agent');
    // Reading stays as the verbs and namespaces allow.
    const state = await call('GET', `/v1/state?namespace=${NAMESPACE}&branch=main`, AGENT);
    expect(state.status).toBe(200);
    expect(state.body.objects).toEqual({ 'state.json': 'main 2' });
    expect((await call('GET', `/v1/log?namespace=${NAMESPACE}&branch=main`, AGENT)).status).toBe(200);
  });

  it('creates, writes and merges into its own branches, from any branch', async () => {
    const created = await call('POST', '/v1/branches', AGENT, { scope: { namespace: NAMESPACE }, name: 'agent-7' });
    expect(created.status).toBe(200);
    expect((await apply(AGENT, 'agent-7', 'agent 1')).status).toBe(200);
    expect((await apply(TEST_STORE_TOKEN, 'main', 'main 3')).status).toBe(200);
    const fromMain = await call('POST', '/v1/merge', AGENT, {
      scope: { namespace: NAMESPACE, branch: 'agent-7' },
      from_branch: 'main',
      strategy: 'theirs',
    });
    expect(fromMain.status).toBe(200);
    refusedOn(
      await call('POST', '/v1/branches', AGENT, { scope: { namespace: NAMESPACE }, name: 'feature' }),
      'feature',
    );
  });

  it('refuses every other change whose target is a branch outside its patterns', async () => {
    const main = { namespace: NAMESPACE, branch: 'main' };
    refusedOn(await call('POST', '/v1/merge', AGENT, { scope: main, from_branch: 'agent-7' }), 'main');
    refusedOn(await call('POST', '/v1/merge', AGENT, { scope: main, from_branch: 'agent-7', dry_run: true }), 'main');
    refusedOn(await call('POST', '/v1/rollback', AGENT, { scope: main, revision_id: 1 }), 'main');
    refusedOn(await call('POST', '/v1/restore', AGENT, { scope: main, from_branch: 'agent-7' }), 'main');
    refusedOn(await call('POST', '/v1/revert', AGENT, { scope: main, revision_id: 2 }), 'main');
    refusedOn(await call('POST', '/v1/cherry-pick', AGENT, { scope: main, revision_id: 4 }), 'main');
    refusedOn(
      await call('POST', '/v1/checkpoints', AGENT, { scope: main, name: 'on-main', create_only: true }),
      'main',
    );
    const state = await call('GET', `/v1/state?namespace=${NAMESPACE}&branch=main`, AGENT);
    expect(state.body.objects).toEqual({ 'state.json': 'main 3' });
  });

  it('renames and deletes only within its patterns, both names counting', async () => {
    const rename = (name: string, newName: string) =>
      call('POST', '/v1/branches/rename', AGENT_ADMIN, { namespace: NAMESPACE, name, new_name: newName });
    const created = await call('POST', '/v1/branches', AGENT_ADMIN, {
      scope: { namespace: NAMESPACE },
      name: 'agent-8',
    });
    expect(created.status).toBe(200);
    const intoMain = await rename('agent-8', 'release');
    expect(intoMain.status).toBe(403);
    expect(intoMain.body.error.message).toBe(
      `token "agent-admin" may not change branch "release": it may change only branches ${PATTERNS}`,
    );
    expect((await rename('main', 'agent-main')).body.error.message).toContain('may not change branch "main"');
    expect((await rename('agent-8', 'scratch')).status).toBe(200);
    const deleteMain = await call('DELETE', '/v1/branches', AGENT_ADMIN, { namespace: NAMESPACE, name: 'main' });
    expect(deleteMain.status).toBe(403);
    expect(deleteMain.body.error.message).toContain('may not change branch "main"');
    expect((await call('DELETE', '/v1/branches', AGENT_ADMIN, { namespace: NAMESPACE, name: 'scratch' })).status).toBe(
      200,
    );
  });

  it('creates a checkpoint on its branch, but moves or deletes none: checkpoints are namespace-wide', async () => {
    const checkpoint = (token: string, body: Record<string, unknown>) =>
      call('POST', '/v1/checkpoints', token, { scope: { namespace: NAMESPACE, branch: 'agent-7' }, ...body });
    expect(await checkpoint(AGENT, { name: 'agent-7-step', create_only: true })).toEqual({
      status: 200,
      body: { name: 'agent-7-step', revision_id: expect.any(Number) },
    });
    // Without create_only, a name no checkpoint has is a creation too; only moving one is refused.
    expect(await checkpoint(AGENT, { name: 'agent-7-next' })).toEqual({
      status: 200,
      body: { name: 'agent-7-next', revision_id: expect.any(Number) },
    });
    expect((await checkpoint(TEST_STORE_TOKEN, { name: 'base' })).status).toBe(200);
    const move = await checkpoint(AGENT, { name: 'base' });
    expect(move.status).toBe(403);
    expect(move.body.error.message).toBe(
      `token "agent" is limited to branches ${PATTERNS}: checkpoint "base" exists, and moving it needs a token ` +
        'not limited to branches (checkpoints are namespace-wide); choose another name to create one',
    );
    // create_only true on a taken name is the 409 it is for any token: it moves nothing.
    expect((await checkpoint(AGENT, { name: 'base', create_only: true })).body.error.reason).toBe('exists');
    // Its own checkpoints move no more than others': the namespace may rely on them as well.
    expect((await checkpoint(AGENT, { name: 'agent-7-next' })).status).toBe(403);
    const remove = await call('DELETE', '/v1/checkpoints', AGENT, { namespace: NAMESPACE, name: 'base' });
    expect(remove.status).toBe(403);
    expect(remove.body.error.message).toBe(
      `token "agent" is limited to branches ${PATTERNS}: checkpoints are namespace-wide: deleting one needs a token not limited to branches`,
    );
    // A `*` pattern limits nothing.
    expect((await call('DELETE', '/v1/checkpoints', EVERY_BRANCH, { namespace: NAMESPACE, name: 'base' })).status).toBe(
      200,
    );
  });

  it('refuses gc, which works on the whole namespace', async () => {
    const gc = await call('POST', '/v1/gc', AGENT_ADMIN, { namespace: NAMESPACE, dry_run: true });
    expect(gc.status).toBe(403);
    expect(gc.body.error.message).toBe(
      `token "agent-admin" is limited to branches ${PATTERNS}: POST /v1/gc works on the whole namespace, which needs a token not limited to branches`,
    );
  });

  it('shows its branches in GET /v1/token; a token not limited to branches shows none', async () => {
    expect(await call('GET', '/v1/token', AGENT)).toEqual({
      status: 200,
      body: {
        auth: true,
        name: 'agent',
        verbs: ['read', 'write'],
        namespaces: ['agents/*'],
        branches: ['agent-*', 'scratch'],
      },
    });
    expect((await call('GET', '/v1/token', EVERY_BRANCH)).body.branches).toBeUndefined();
    expect((await call('GET', '/v1/token', TEST_STORE_TOKEN)).body.branches).toBeUndefined();
  });
});

describe('--check on store.auth.tokens[].branches', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-branch-grants-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a pattern that matches no branch, and an empty list, naming the token and field', async () => {
    const file = join(dir, 'gatehouse.yaml');
    writeFileSync(
      file,
      [
        'store:',
        '  auth:',
        '    tokens:',
        '      - name: agent',
        '        token: st-agent-writer-0123456789abcdef',
        '        verbs: [read, write]',
        '        namespaces: ["agents/*"]',
        '        branches: ["agent-*", "agent-**", "*-agent", "main"]',
        '      - name: nothing',
        '        token: st-nothing-writer-0123456789abcdef',
        '        verbs: [write]',
        '        namespaces: ["*"]',
        '        branches: []',
        '',
      ].join('\n'),
    );
    const failure = await failedStart({ GATEHOUSE_DATA_DIR: join(dir, 'data') }, 25_000, ['--check', '--config', file]);
    expect(failure?.code).toBe(2);
    const rule = 'must be "*", a branch such as main, or a prefix such as agent-*';
    expect(failure?.stderr).toContain(`store.auth.tokens[0].branches[1]: "agent-**" ${rule}`);
    expect(failure?.stderr).toContain(`store.auth.tokens[0].branches[2]: "*-agent" ${rule}`);
    expect(failure?.stderr).not.toContain('branches[0]');
    expect(failure?.stderr).toContain(
      'store.auth.tokens[1].branches: must list at least one branch pattern, such as ["agent-*"]; leave it out for every branch',
    );
  });
});
