import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY } from '../support/temp-servers.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

const COMPOSED_USER = 'j\u00fcrgen';
const COMPOSED_TEAM = 'm\u00fcnchen';
// The same names with `ü` as `u` and a combining diaeresis, as some keyboards and file names write it.
const DECOMPOSED_USER = encodeURIComponent(COMPOSED_USER.normalize('NFD'));
const DECOMPOSED_TEAM = encodeURIComponent(COMPOSED_TEAM.normalize('NFD'));

/** List filters naming a user or team are composed (NFC) as ids are, so either way of writing `ü` finds them. */
describe('admin list filters naming a user or team', () => {
  let h: GatewayHarness;
  let keyId: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    const key = await h.issueKey({ scopes: ['chat'], user: COMPOSED_USER, team: COMPOSED_TEAM });
    keyId = key.id;
    await h.openaiClient(key.key).chat.completions.create({
      model: 'demo/echo',
      messages: [{ role: 'user', content: 'Hello' }],
    });
  });
  afterAll(() => h.close());

  it('finds keys by a decomposed user or team', async () => {
    const byUser = await h.admin('GET', `/internal/api-keys?user=${DECOMPOSED_USER}`);
    expect(byUser.body.data.map((key: { id: string }) => key.id)).toEqual([keyId]);
    const byTeam = await h.admin('GET', `/internal/api-keys?team=${DECOMPOSED_TEAM}`);
    expect(byTeam.body.data.map((key: { id: string }) => key.id)).toEqual([keyId]);
  });

  it('finds users by a decomposed team', async () => {
    const users = await h.admin('GET', `/internal/users?team=${DECOMPOSED_TEAM}`);
    expect(users.body.data.map((user: { id: string }) => user.id)).toEqual([COMPOSED_USER]);
  });

  it('finds usage and usage rows by a decomposed user or team', async () => {
    const rows = await h.usageRows(`user=${DECOMPOSED_USER}`);
    expect(rows.map((row: { key_id: string }) => row.key_id)).toEqual([keyId]);
    expect(await h.usageRows(`team=${DECOMPOSED_TEAM}`)).toHaveLength(1);
    const usage = await h.admin('GET', `/internal/usage?group_by=user&user=${DECOMPOSED_USER}`);
    expect(usage.body.totals.requests).toBe(1);
    const byTeam = await h.admin('GET', `/internal/usage?group_by=team&team=${DECOMPOSED_TEAM}`);
    expect(byTeam.body.totals.requests).toBe(1);
  });

  it('finds audit events by a decomposed target', async () => {
    const events = await h.admin('GET', `/internal/audit?target=${DECOMPOSED_USER}`);
    expect(events.body.data.map((event: { action: string }) => event.action)).toEqual(['user.create']);
    const teamEvents = await h.admin('GET', `/internal/audit?target=${DECOMPOSED_TEAM}`);
    expect(teamEvents.body.data.map((event: { action: string }) => event.action)).toEqual(['team.create']);
  });
});

describe('a key of a user an older version stored with a decomposed id', () => {
  it('is listed by either form of the user id', async () => {
    const legacy = COMPOSED_USER.normalize('NFD');
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-adminkeys-filters-'));
    try {
      const first = await startTempServers({}, { GATEHOUSE_DATA_DIR: dataDir });
      first.database.sqlite
        .prepare('INSERT INTO gateway_users (id, created_at, updated_at) VALUES (?, ?, ?)')
        .run(legacy, Date.now(), Date.now());
      await first.close();
      const second = await startTempServers({}, { GATEHOUSE_DATA_DIR: dataDir });
      try {
        const admin = async (method: string, path: string, body?: unknown) =>
          (await fetch(`${second.gatewayUrl}${path}`, {
            method,
            headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
            body: body === undefined ? undefined : JSON.stringify(body),
          }).then((response) => response.json())) as { id: string; data: Array<{ id: string }> };
        const key = await admin('POST', '/internal/api-keys', { scopes: ['chat'], user: COMPOSED_USER });
        for (const form of [DECOMPOSED_USER, encodeURIComponent(COMPOSED_USER)])
          expect((await admin('GET', `/internal/api-keys?user=${form}`)).data.map((row) => row.id)).toEqual([key.id]);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
