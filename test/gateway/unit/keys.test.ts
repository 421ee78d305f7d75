import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../src/server/db/connection.js';
import { hashKeySecret, isIssuedKey } from '../../../src/server/gateway/keys/key-secret.js';
import { KeysRepository } from '../../../src/server/gateway/keys/keys.repository.js';
import { KeysService } from '../../../src/server/gateway/keys/keys.service.js';
import { LruCache } from '../../../src/server/gateway/keys/lru-cache.js';
import { hasScope } from '../../../src/server/gateway/keys/scopes.js';

describe('scopes', () => {
  it('grant their endpoint, rag collections by name or rag:*, and everything with *', () => {
    expect(hasScope(['chat'], 'chat')).toBe(true);
    expect(hasScope(['chat'], 'embeddings')).toBe(false);
    expect(hasScope(['*'], 'responses')).toBe(true);
    expect(hasScope(['rag:docs'], 'rag:docs')).toBe(true);
    expect(hasScope(['rag:docs'], 'rag:hr')).toBe(false);
    expect(hasScope(['rag:*'], 'rag:hr')).toBe(true);
    expect(hasScope(['rag:*'], 'chat')).toBe(false);
  });
});

describe('LRU cache', () => {
  it('evicts the least recently used entry', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a');
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.size).toBe(2);
  });
});

describe('keys service', () => {
  let dir: string;
  let database: DatabaseHandle;
  let now: number;
  let service: KeysService;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-keys-'));
    database = openDatabase(join(dir, 'db.sqlite'));
    now = 1_700_000_000_000;
    service = new KeysService(new KeysRepository(database.db, database.sqlite), {
      now: () => now,
      touchIntervalMs: 60_000,
    });
  });
  afterEach(() => {
    service.close();
    database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('issues gk- keys stored only as sha256, with the chat scope by default', () => {
    const { row, secret } = service.issue({});
    expect(isIssuedKey(secret)).toBe(true);
    expect(row.keyHash).toBe(hashKeySecret(secret));
    expect(row.scopes).toEqual(['chat']);
    expect(JSON.stringify(database.sqlite.prepare('SELECT * FROM gateway_api_keys').all())).not.toContain(secret);
  });

  it('checks secrets from memory after the first lookup, and sees updates and revocation at once', () => {
    const { row, secret } = service.issue({ scopes: ['chat', 'embeddings'] });
    expect(service.check(secret)).toMatchObject({ ok: true });
    // A second check must not need the database.
    const spy = database.sqlite.prepare.bind(database.sqlite);
    let prepared = 0;
    database.sqlite.prepare = ((sql: string) => {
      prepared += 1;
      return spy(sql);
    }) as typeof database.sqlite.prepare;
    expect(service.check(secret)).toMatchObject({ ok: true });
    expect(prepared).toBe(0);
    database.sqlite.prepare = spy as typeof database.sqlite.prepare;

    service.update(row.id, { scopes: ['embeddings'] });
    const updated = service.check(secret);
    expect(updated.ok && updated.key.row.scopes).toEqual(['embeddings']);
    service.revoke(row.id);
    expect(service.check(secret)).toEqual({ ok: false, reason: 'revoked' });
    expect(service.check('gk-unknown')).toEqual({ ok: false, reason: 'unknown' });
  });

  it('expires keys at their expiry time', () => {
    const { secret } = service.issue({ expires_in_seconds: 60 });
    expect(service.check(secret).ok).toBe(true);
    now += 60_000;
    expect(service.check(secret)).toEqual({ ok: false, reason: 'expired' });
  });

  it('writes last-use times in batches', () => {
    const { row } = service.issue({});
    service.noteUsed(row.id);
    expect(service.get(row.id)!.lastUsedAt).toBeNull();
    service.flushTouches();
    expect(service.get(row.id)!.lastUsedAt).toBe(now);
  });
});
