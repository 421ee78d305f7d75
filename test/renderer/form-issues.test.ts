import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { emptyDraft, toDeploymentInput } from '../../src/renderer/src/features/gateway/deployment-form.js';
import { keyLimitsForm, toKeyLimitsUpdate } from '../../src/renderer/src/features/gateway/key-limits-form.js';
import {
  principalForm,
  toTeamCreate,
  toUserCreate,
} from '../../src/renderer/src/features/gateway/people/principal-form.js';
import { parseForm, type FormFieldRef } from '../../src/renderer/src/lib/form-issues.js';
import type { ApiKeyRecord } from '../../src/shared/gateway-api.js';

const RAW_ZOD = /Invalid input|Too small|Too big|expected|received|Invalid (string|option|email)/;

describe('form messages from the shared schemas', () => {
  it('says a required field is required, by its label', () => {
    expect(toTeamCreate(principalForm()).errors).toEqual({ id: 'Id is required' });
    expect(toUserCreate(principalForm()).errors).toEqual({ id: 'Id is required' });
    expect(toDeploymentInput(emptyDraft()).errors).toEqual({ model: 'Model is required' });
  });

  it('names the field in the complaints zod words generically', () => {
    const user = toUserCreate({ ...principalForm(), id: 'ada', email: 'not-an-address' }).errors;
    expect(user.email).toBe('E-mail must be an e-mail address, like alice@example.com');
    const deployment = toDeploymentInput({ ...emptyDraft(), model: 'm', weight: 'heavy', timeoutMs: '1.5' }).errors;
    expect(deployment.weight).toBe('Weight must be a number');
    expect(deployment.timeoutMs).toBe('Timeout (ms) must be a whole number');
    expect(toDeploymentInput({ ...emptyDraft(), model: 'm', maxRetries: '11' }).errors.maxRetries).toBe(
      'Retries must be 10 or less',
    );
    expect(toDeploymentInput({ ...emptyDraft(), model: 'm', weight: '0' }).errors.weight).toBe(
      'Weight must be above 0',
    );
    expect(toDeploymentInput({ ...emptyDraft(), model: 'm', responsesApi: 'sometimes' }).errors.responsesApi).toBe(
      'Responses API must be one of native, translate',
    );
  });

  it("keeps a schema's own message, with the field's label as its subject", () => {
    expect(toTeamCreate({ ...principalForm(), id: 'has space' }).errors.id).toBe(
      'Id must be letters and digits (of any script) and . _ @ + - only',
    );
    expect(toDeploymentInput({ ...emptyDraft(), model: 'm', apiKeyEnv: 'sk-123' }).errors.apiKeyEnv).toBe(
      'API key environment variable must be an environment variable name, like OPENAI_API_KEY',
    );
    expect(toDeploymentInput({ ...emptyDraft(), model: 'm', baseUrl: 'ftp://x' }).errors.baseUrl).toBe(
      "Base URL must be an http:// or https:// URL, got 'ftp://x/'",
    );
  });

  it('never shows zod’s raw text for limits either', () => {
    const key = { rpm_limit: null, tpm_limit: null } as unknown as ApiKeyRecord;
    const { errors } = toKeyLimitsUpdate({ ...keyLimitsForm({ ...key } as ApiKeyRecord), rpm: '2.5' }, key);
    expect(errors.rpm).toBe('Requests per minute must be a whole number above 0, or empty');
    for (const message of Object.values(toDeploymentInput({ ...emptyDraft(), weight: 'x' }).errors))
      expect(message).not.toMatch(RAW_ZOD);
  });

  it('puts problems about no known field on the fallback, and a missing field is required', () => {
    const schema = z.object({ name: z.string(), size: z.number().int().min(2) }).strict();
    const fields: Record<string, FormFieldRef<'name' | 'size' | 'form'>> = {
      name: { field: 'name', label: 'Name' },
      size: { field: 'size', label: 'Size' },
    };
    expect(parseForm(schema, { size: 1 }, fields, { field: 'form', label: 'The form' }).errors).toEqual({
      name: 'Name is required',
      size: 'Size must be 2 or more',
    });
    const extra = parseForm(schema, { name: 'a', size: 3, other: 1 }, fields, { field: 'form', label: 'The form' });
    expect(Object.keys(extra.errors)).toEqual(['form']);
    expect(parseForm(schema, { name: 'a', size: 3 }, fields, { field: 'form', label: 'The form' })).toEqual({
      data: { name: 'a', size: 3 },
      errors: {},
    });
  });
});
