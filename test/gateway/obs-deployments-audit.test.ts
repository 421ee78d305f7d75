import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';

/**
 * A save of the deployment list is audited as what it changed: the deployments before and after
 * (never a key), the ids whose provider key changed (never the key or any part of it), and nothing
 * at all for a save that changed nothing.
 */
const FIRST_KEY = 'sk-first-provider-key-0123456789';
const SECOND_KEY = 'sk-second-provider-key-9876543210';

describe('audit events of deployment saves', () => {
  let servers: TempServers;
  beforeAll(async () => {
    servers = await startTempServers();
  });
  afterAll(async () => servers?.stop());

  const admin = gatewayAdmin(() => servers);
  const deployment = (extra: Record<string, unknown> = {}) => ({
    id: 'local-a',
    model: 'team-model',
    provider: 'openai',
    upstream_model: 'gpt-4o-mini',
    base_url: 'http://127.0.0.1:9/v1',
    weight: 1,
    ...extra,
  });
  const save = async (deployments: unknown[]) => {
    const answer = await admin('PUT', '/internal/deployments', { deployments });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  };
  const events = async () =>
    (await admin('GET', '/internal/audit?limit=100')).body.data.filter((event: { action: string }) =>
      event.action.startsWith('deployments.'),
    ) as Array<{ action: string; details: Record<string, unknown> }>;

  it('records what a save changed, which ids had their key changed, and nothing for a save that changed nothing', async () => {
    await save([deployment({ api_key: FIRST_KEY })]);
    const [created] = await events();
    expect(created!.details).toMatchObject({
      before: [],
      after: [expect.objectContaining({ id: 'local-a', api_key_set: true, weight: 1 })],
      // Added with a key: its key was set.
      api_key_changed: ['local-a'],
      source: { before: 'config', after: 'database' },
    });

    // The same list again, its key kept (sent without api_key, as the UI sends it): no event.
    await save([deployment()]);
    expect(await events()).toHaveLength(1);

    // Only the key changes: the event names the deployment, and nothing of either key.
    await save([deployment({ api_key: SECOND_KEY })]);
    const [keyChange, ...rest] = await events();
    expect(rest).toHaveLength(1);
    expect(keyChange).toMatchObject({
      action: 'deployments.update',
      details: { before: [], after: [], api_key_changed: ['local-a'] },
    });

    // The same key sent again changes nothing either.
    await save([deployment({ api_key: SECOND_KEY })]);
    expect(await events()).toHaveLength(2);

    // A setting changes: the deployment as it was and as it is.
    await save([deployment({ weight: 5 }), deployment({ id: 'local-b', api_key: FIRST_KEY })]);
    const [edit] = await events();
    expect(edit!.details).toMatchObject({
      before: [expect.objectContaining({ id: 'local-a', weight: 1 })],
      after: [
        expect.objectContaining({ id: 'local-a', weight: 5 }),
        expect.objectContaining({ id: 'local-b', api_key_set: true }),
      ],
      api_key_changed: ['local-b'],
    });

    // The key cleared, and one deployment removed.
    await save([deployment({ weight: 5, api_key: null })]);
    const [cleared] = await events();
    expect(cleared!.details).toMatchObject({
      before: [
        expect.objectContaining({ id: 'local-a', api_key_set: true }),
        expect.objectContaining({ id: 'local-b' }),
      ],
      after: [expect.objectContaining({ id: 'local-a', api_key_set: false })],
      api_key_changed: ['local-a'],
    });

    const audit = JSON.stringify(await events());
    for (const key of [FIRST_KEY, SECOND_KEY]) {
      expect(audit).not.toContain(key);
      expect(audit).not.toContain(key.slice(-8));
      expect(audit).not.toContain(key.slice(0, 12));
    }
  });

  it('records a reset that changes the list, and none for a reset of the file list already in force', async () => {
    await admin('PUT', '/internal/deployments', { reset: true });
    const [reset] = await events();
    expect(reset).toMatchObject({
      action: 'deployments.reset',
      details: {
        before: [expect.objectContaining({ id: 'local-a' })],
        source: { before: 'database', after: 'config' },
      },
    });
    const count = (await events()).length;
    await admin('PUT', '/internal/deployments', { reset: true });
    expect(await events()).toHaveLength(count);
  });
});
