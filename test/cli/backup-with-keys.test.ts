import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataFolderSuite, npmRun } from '../support/data-folder-commands.js';
import { spawnHeadless, type HeadlessProcess } from '../support/headless-process.js';

const { cleanups, tempDir } = dataFolderSuite('gatehouse-backup-keys-');

/** This suite's ports (a restored folder's server runs on them after the first one stopped). */
const PORTS = { GATEWAY_PORT: '19400', STORE_PORT: '19401' };
const WHAT = 'the provider keys (api_key) of the deployments saved through PUT /internal/deployments';

async function serve(dataDir: string): Promise<HeadlessProcess> {
  const server = await spawnHeadless({ GATEHOUSE_DATA_DIR: dataDir, ...PORTS });
  cleanups.push(() => server.child.kill('SIGKILL'));
  return server;
}

async function stop(server: HeadlessProcess): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited();
}

/** The generated master key of `dataDir`, as the admin API takes it. */
function adminHeaders(dataDir: string): Record<string, string> {
  const master = readFileSync(join(dataDir, 'master.key'), 'utf8').trim();
  return { authorization: `Bearer ${master}`, 'content-type': 'application/json' };
}

/** A stopped data folder whose database holds one provider key, sealed with its generated secrets.key. */
async function folderWithProviderKey(dir: string): Promise<string> {
  const data = join(dir, 'data');
  const server = await serve(data);
  const saved = await fetch(`${server.gatewayUrl}/internal/deployments`, {
    method: 'PUT',
    headers: adminHeaders(data),
    body: JSON.stringify({
      deployments: [
        {
          id: 'team',
          model: 'gpt-4o-mini',
          provider: 'openai',
          base_url: 'http://127.0.0.1:19402/v1',
          api_key: 'sk-team-0123456789',
        },
      ],
    }),
  });
  expect(saved.status).toBe(200);
  await stop(server);
  return data;
}

describe('npm run backup --with-keys and its restore', () => {
  it('writes a private folder with the database and key files, and a restore into a new folder serves the provider key', async () => {
    const dir = tempDir();
    const data = await folderWithProviderKey(dir);
    const backup = join(dir, 'backups', 'with-keys');
    const made = await npmRun('backup', [backup, '--data-dir', data, '--with-keys']);
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toContain(`backup: wrote the folder ${backup} (mode 0700) holding:\n  gatehouse.db (`);
    for (const name of ['secrets.key', 'master.key', 'store.token'])
      expect(made.stdout).toContain(`  ${name} (mode 0600), copied from ${join(data, name)}\n`);
    expect(made.stdout).toContain('backup: the backup holds secrets');
    expect(made.stdout).toContain('keep it as private as the data folder');
    expect(statSync(backup).mode & 0o777).toBe(0o700);
    expect(readdirSync(backup).sort()).toEqual(['gatehouse.db', 'master.key', 'secrets.key', 'store.token']);
    for (const name of readdirSync(backup)) expect(statSync(join(backup, name)).mode & 0o777).toBe(0o600);
    // Nothing of the copy is left beside it.
    expect(readdirSync(join(dir, 'backups'))).toEqual(['with-keys']);

    const fresh = join(dir, 'new-machine');
    const restored = await npmRun('restore', [backup, '--data-dir', fresh]);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    const keyFiles = ['secrets.key', 'master.key', 'store.token'].map((name) => join(fresh, name));
    expect(restored.stdout).toContain(`restore: put back the backup's key files (mode 0600): ${keyFiles.join(', ')}`);
    expect(restored.stdout).toContain(
      `restore: ${join(fresh, 'secrets.key')} (put back from the backup) opens ${WHAT} (1 in the database)`,
    );
    for (const name of ['secrets.key', 'master.key', 'store.token']) {
      expect(readFileSync(join(fresh, name), 'utf8')).toBe(readFileSync(join(data, name), 'utf8'));
      expect(statSync(join(fresh, name)).mode & 0o777).toBe(0o600);
    }

    // A start over provider keys its secrets.key cannot open stops; this one serves them, to the old master key.
    const server = await serve(fresh);
    const listed = await fetch(`${server.gatewayUrl}/internal/deployments`, { headers: adminHeaders(data) });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(await listed.json())).toContain('"id":"team"');
  }, 120_000);

  it('refuses an existing destination without --force, and with it a folder that is not such a backup', async () => {
    const dir = tempDir();
    const data = await folderWithProviderKey(dir);
    const backup = join(dir, 'kept');
    expect((await npmRun('backup', [backup, '--data-dir', data, '--with-keys'])).code).toBe(0);
    const again = await npmRun('backup', [backup, '--data-dir', data, '--with-keys']);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(`backup: ${backup} already exists: pass --force to replace it, or name another folder\n`);
    expect((await npmRun('backup', [backup, '--data-dir', data, '--with-keys', '--force'])).code).toBe(0);

    const notBackup = join(dir, 'photos');
    mkdirSync(notBackup);
    writeFileSync(join(notBackup, 'holiday.jpg'), 'not a backup');
    const forced = await npmRun('backup', [notBackup, '--data-dir', data, '--with-keys', '--force']);
    expect(forced.code).toBe(2);
    expect(forced.stderr).toBe(
      `backup: ${notBackup} is a folder that is not a backup npm run backup --with-keys wrote (it holds holiday.jpg), so --force does not replace it: name another folder\n`,
    );
    expect(readdirSync(notBackup)).toEqual(['holiday.jpg']);
  }, 90_000);

  it('refuses to replace different key files without --force, naming each, and keeps them aside with it', async () => {
    const dir = tempDir();
    const data = await folderWithProviderKey(dir);
    const backup = join(dir, 'backup');
    expect((await npmRun('backup', [backup, '--data-dir', data, '--with-keys'])).code).toBe(0);

    const other = join(dir, 'other');
    mkdirSync(other, { mode: 0o700 });
    writeFileSync(join(other, 'secrets.key'), 'secrets-another-folders-key-0123456789abcdef\n', { mode: 0o600 });
    writeFileSync(join(other, 'master.key'), 'gk-master-another-folders-0123456789abcdef\n', { mode: 0o600 });
    writeFileSync(join(other, 'store.token'), readFileSync(join(data, 'store.token')), { mode: 0o600 });
    const refused = await npmRun('restore', [backup, '--data-dir', other]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `restore: the data folder ${other} has key files other than the backup's: ${join(other, 'secrets.key')}, ${join(other, 'master.key')}; ` +
        "pass --force to put the backup's in their place (the current ones are kept aside as <file>.before-restore-<time>, not deleted)\n",
    );
    expect(readdirSync(other).sort()).toEqual(['master.key', 'secrets.key', 'store.token']);
    expect(readFileSync(join(other, 'secrets.key'), 'utf8')).toBe('secrets-another-folders-key-0123456789abcdef\n');

    const forced = await npmRun('restore', [backup, '--data-dir', other, '--force']);
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(
      /restore: kept the replaced key files aside \(this command never deletes them\): \S+secrets\.key\.before-restore-[\dTZ.-]+, \S+master\.key\.before-restore-[\dTZ.-]+\n/,
    );
    expect(forced.stdout).toContain(
      `restore: put back the backup's key files (mode 0600): ${join(other, 'secrets.key')}, ${join(other, 'master.key')}\n`,
    );
    expect(forced.stdout).toContain(
      `restore: already the backup's, left as they were: ${join(other, 'store.token')}\n`,
    );
    expect(forced.stdout).toContain(`(put back from the backup) opens ${WHAT} (1 in the database)`);
    const aside = readdirSync(other).find((name) => name.startsWith('secrets.key.before-restore-'));
    expect(readFileSync(join(other, aside!), 'utf8')).toBe('secrets-another-folders-key-0123456789abcdef\n');
    expect(readFileSync(join(other, 'secrets.key'), 'utf8')).toBe(readFileSync(join(data, 'secrets.key'), 'utf8'));
  }, 90_000);
});
