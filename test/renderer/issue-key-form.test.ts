import { describe, expect, it } from 'vitest';
import { apiKeyCreateSchema } from '../../src/shared/gateway-api.js';
import { EMPTY_FORM, toIssueKeyRequest } from '../../src/renderer/src/features/gateway/issue-key-form.js';

describe('issue key form', () => {
  it('turns a filled form into a body the admin API accepts', () => {
    const form = {
      ...EMPTY_FORM,
      name: 'ci',
      user: 'alice@example.com',
      team: 'platform',
      scopes: ['chat', 'embeddings'],
      ragCollections: 'docs, wiki',
      models: ['demo/echo'],
      rpm: '60',
      userTpd: '100000',
      expiresInDays: '30',
    };
    const { body, errors } = toIssueKeyRequest(form);
    expect(errors).toEqual({});
    expect(body).toMatchObject({
      name: 'ci',
      user: 'alice@example.com',
      team: 'platform',
      scopes: ['chat', 'embeddings', 'rag:docs', 'rag:wiki'],
      models: ['demo/echo'],
      rpm_limit: 60,
      user_tpd_budget: 100000,
      expires_in_seconds: 30 * 86400,
    });
    expect(apiKeyCreateSchema.safeParse(body).success).toBe(true);
  });

  it('sends nothing for empty fields but the name', () => {
    expect(toIssueKeyRequest({ ...EMPTY_FORM, name: 'ci' }).body).toEqual({ name: 'ci', scopes: ['chat'] });
  });

  it('names the field in each message', () => {
    const { body, errors } = toIssueKeyRequest({ ...EMPTY_FORM, name: 'ci', rpm: '1.5', teamTpd: '0' });
    expect(body).toBeUndefined();
    expect(errors).toEqual({
      rpm: 'Requests per minute must be a whole number above 0, or empty',
      teamTpd: 'Team token budget per day must be a whole number above 0, or empty',
    });
    expect(toIssueKeyRequest(EMPTY_FORM).errors.name).toMatch(/^Name is required/);
    for (const written of ['1e3', '0x10', '1_000'])
      expect(toIssueKeyRequest({ ...EMPTY_FORM, name: 'ci', rpm: written }).errors.rpm).toMatch(/whole number/);
    expect(toIssueKeyRequest({ ...EMPTY_FORM, name: 'ci', rpm: ' 1000 ' }).body?.rpm_limit).toBe(1000);
  });

  it('refuses a user or team the gateway would refuse, on its field, in the shared schema’s words', () => {
    const { body, errors } = toIssueKeyRequest({ ...EMPTY_FORM, name: 'ci', user: 'not a user!', team: 'a/b' });
    expect(body).toBeUndefined();
    expect(errors.user).toBe('User must be letters and digits (of any script) and . _ @ + - only');
    expect(errors.team).toBe('Team must be letters and digits (of any script) and . _ @ + - only');
    expect(toIssueKeyRequest({ ...EMPTY_FORM, name: 'ci', user: 'x'.repeat(201) }).errors.user).toBe(
      'User may have at most 200 characters',
    );
  });

  it('reports every problem at once: its own checks and the schema’s', () => {
    const { errors } = toIssueKeyRequest({ ...EMPTY_FORM, user: 'no spaces', rpm: 'lots', scopes: [] });
    expect(Object.keys(errors).sort()).toEqual(['name', 'rpm', 'scopes', 'user']);
    expect(errors.scopes).toBe('Pick at least one scope.');
  });

  it('says what is wrong with a collection name rather than with the scopes it makes', () => {
    const { errors } = toIssueKeyRequest({ ...EMPTY_FORM, name: 'ci', scopes: [], ragCollections: 'bad name' });
    expect(errors).toEqual({ ragCollections: expect.stringContaining('Collection names use letters') });
  });
});
