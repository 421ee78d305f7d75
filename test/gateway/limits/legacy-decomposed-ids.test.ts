import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY } from '../../support/temp-servers.js';

const DECOMPOSED = 'd\u0061\u0308na@example.com';
const COMPOSED = DECOMPOSED.normalize('NFC');

/**
 * Ids are composed (NFC) when records are made. A user an older version stored with a decomposed id
 * stays reachable: by its id as stored, and by the composed form a client now sends.
 */
describe('a user stored with a decomposed id by an older version', () => {
  it('is found, changed and deleted by either form of its id', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-legacy-ids-'));
    try {
      const first = await startTempServers({}, { GATEHOUSE_DATA_DIR: dataDir });
      first.database.sqlite
        .prepare('INSERT INTO gateway_users (id, created_at, updated_at) VALUES (?, ?, ?)')
        .run(DECOMPOSED, Date.now(), Date.now());
      await first.close();
      const second = await startTempServers({}, { GATEHOUSE_DATA_DIR: dataDir });
      try {
        const admin = (method: string, id: string, body?: unknown) =>
          fetch(`${second.gatewayUrl}/internal/users/${encodeURIComponent(id)}`, {
            method,
            headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
        expect((await admin('GET', DECOMPOSED)).status).toBe(200);
        const changed = await admin('PATCH', COMPOSED, { name: 'Dana' });
        expect(changed.status).toBe(200);
        expect(await changed.json()).toMatchObject({ id: DECOMPOSED, name: 'Dana' });
        // Named composed, as ids now are: the same user, not a second record.
        const keys = await fetch(`${second.gatewayUrl}/internal/api-keys`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ scopes: ['chat'], user: COMPOSED }),
        });
        const key = (await keys.json()) as { id: string; user: string };
        expect(key.user).toBe(DECOMPOSED);
        const duplicate = await fetch(`${second.gatewayUrl}/internal/users`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ id: COMPOSED }),
        });
        expect(duplicate.status).toBe(409);
        const revoked = await fetch(`${second.gatewayUrl}/internal/api-keys/${key.id}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
        });
        expect(revoked.status).toBe(200);
        expect((await admin('DELETE', COMPOSED)).status).toBe(200);
        expect((await admin('GET', DECOMPOSED)).status).toBe(404);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
