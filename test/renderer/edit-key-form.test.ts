import { describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '../../src/shared/gateway-api.js';
import { editKeyForm, NO_EXPIRY, toKeyAccessUpdate } from '../../src/renderer/src/features/gateway/edit-key-form.js';

const NOW = new Date('2026-11-28T12:00:00.000Z');

const stored = {
  id: 'k1',
  name: 'ci',
  key_prefix: 'gk-abc',
  user: 'alice',
  team: 'platform',
  scopes: ['chat', 'rag:docs', 'rag:wiki'],
  models: ['demo/echo'],
  expires_at: '2027-01-01T00:00:00.000Z',
} as unknown as ApiKeyRecord;

describe('edit key form', () => {
  it('starts from the stored key, its RAG scopes as a list of collections', () => {
    expect(editKeyForm(stored)).toEqual({
      name: 'ci',
      user: 'alice',
      team: 'platform',
      scopes: ['chat'],
      ragCollections: 'docs, wiki',
      models: ['demo/echo'],
      expiresInDays: '',
    });
  });

  it('sends nothing for an untouched form, scopes and models compared as sets', () => {
    const form = { ...editKeyForm(stored), ragCollections: 'wiki , docs' };
    expect(toKeyAccessUpdate(form, stored, NOW)).toEqual({ body: {}, errors: {} });
  });

  it('sends only what changed: emptied fields cleared, no model checked is every model, expiry from now', () => {
    const form = { ...editKeyForm(stored), name: ' ci-2 ', team: '', models: [], expiresInDays: '7' };
    expect(toKeyAccessUpdate(form, stored, NOW)).toEqual({
      body: { name: 'ci-2', team: null, models: null, expires_at: '2026-12-05T12:00:00.000Z' },
      errors: {},
    });
    expect(toKeyAccessUpdate({ ...editKeyForm(stored), expiresInDays: NO_EXPIRY }, stored, NOW).body).toEqual({
      expires_at: null,
    });
  });

  it('names the field of a problem and sends nothing', () => {
    const noScopes = { ...editKeyForm(stored), scopes: [], ragCollections: '' };
    expect(toKeyAccessUpdate(noScopes, stored, NOW)).toEqual({ errors: { scopes: 'Pick at least one scope.' } });
    const badUser = toKeyAccessUpdate({ ...editKeyForm(stored), user: 'a b' }, stored, NOW);
    expect(badUser.body).toBeUndefined();
    expect(badUser.errors.user).toMatch(/^User /);
  });
});
