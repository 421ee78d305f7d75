import { describe, expect, it } from 'vitest';
import { apiKeyCreateSchema } from '../../src/shared/gateway-api.js';
import { EMPTY_FORM, toRequest, validateForm } from '../../src/renderer/src/features/gateway/issue-key-form.js';

describe('issue key form', () => {
  it('turns a filled form into a body the admin API accepts', () => {
    const form = {
      ...EMPTY_FORM,
      name: 'ci',
      team: 'platform',
      scopes: ['chat', 'embeddings'],
      ragCollections: 'docs, wiki',
      models: ['demo/echo'],
      rpm: '60',
      userTpd: '100000',
      expiresInDays: '30',
    };
    expect(validateForm(form)).toEqual({});
    const body = toRequest(form);
    expect(body).toMatchObject({
      name: 'ci',
      team: 'platform',
      scopes: ['chat', 'embeddings', 'rag:docs', 'rag:wiki'],
      models: ['demo/echo'],
      rpm_limit: 60,
      user_tpd_budget: 100000,
      expires_in_seconds: 30 * 86400,
    });
    expect(apiKeyCreateSchema.safeParse(body).success).toBe(true);
  });

  it('sends nothing for empty fields', () => {
    const body = toRequest(EMPTY_FORM);
    expect(apiKeyCreateSchema.parse(body)).toEqual({ scopes: ['chat'] });
  });

  it('names the fields that are wrong', () => {
    const errors = validateForm({ ...EMPTY_FORM, name: 'ci', rpm: '1.5', scopes: [], ragCollections: 'bad name' });
    expect(Object.keys(errors).sort()).toEqual(['ragCollections', 'rpm']);
    expect(validateForm(EMPTY_FORM).name).toContain('Name is required');
    expect(validateForm({ ...EMPTY_FORM, scopes: [] }).scopes).toBeDefined();
  });
});
