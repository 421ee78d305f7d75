import { describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '../../src/shared/gateway-api.js';
import { keyLimitsForm, toKeyLimitsUpdate } from '../../src/renderer/src/features/gateway/key-limits-form.js';
import { principalForm, toUserCreate } from '../../src/renderer/src/features/gateway/people/principal-form.js';
import { limitMeterView } from '../../src/renderer/src/lib/limit-status.js';

const key = {
  rpm_limit: 10,
  tpm_limit: null,
  usd_daily_budget: null,
  usd_monthly_budget: 25,
  user_tpm_budget: null,
  user_tpd_budget: 5000,
  team_tpm_budget: null,
  team_tpd_budget: null,
} as ApiKeyRecord;

describe('the edit-limits form of a key', () => {
  it('sends only what changed, an emptied field as null', () => {
    const form = { ...keyLimitsForm(key), rpm: '20', userTpd: '' };
    expect(toKeyLimitsUpdate(form, key)).toEqual({ body: { rpm_limit: 20, user_tpd_budget: null }, errors: {} });
  });

  it('sends nothing when nothing changed', () => {
    expect(toKeyLimitsUpdate(keyLimitsForm(key), key)).toEqual({ body: {}, errors: {} });
  });

  it('names the field of a limit that is not a whole number above 0', () => {
    const result = toKeyLimitsUpdate({ ...keyLimitsForm(key), tpm: '0', teamTpd: '1.5' }, key);
    expect(result.body).toBeUndefined();
    expect(Object.keys(result.errors).sort()).toEqual(['teamTpd', 'tpm']);
  });
});

describe('the user and team form', () => {
  it("shows every problem at once: the limits' own checks and the shared schema's", () => {
    const result = toUserCreate({ ...principalForm(), id: '', team: 'bad team!', rpm: 'ten', usd: '-1' });
    expect(result.body).toBeUndefined();
    expect(Object.keys(result.errors).sort()).toEqual(['id', 'rpm', 'team', 'usd']);
    expect(result.errors.rpm).toMatch(/^Requests per minute must be a whole number/);
  });

  it('a form the checks accept is the body, with no problems', () => {
    const result = toUserCreate({ ...principalForm(), id: 'ada', rpm: '10' });
    expect(result).toEqual({ body: { id: 'ada', rpm_limit: 10 }, errors: {} });
  });
});

describe('a limit meter', () => {
  it('a bucket near its limit warns, names its owner and when all of it is available again', () => {
    const view = limitMeterView({
      limit_type: 'requests',
      subject: 'user:ada',
      limit: 10,
      used: 9,
      remaining: 1,
      reset_ms: 54_000,
    });
    expect(view).toMatchObject({
      ownerName: 'user ada',
      amount: '9 / 10',
      level: 'near',
      reset: 'All 10 available again in 54 s',
    });
  });

  it('a used-up day budget is full and resets at the end of the UTC day', () => {
    const view = limitMeterView({
      limit_type: 'team_daily',
      subject: 'team:research',
      limit: 5000,
      used: 5000,
      remaining: 0,
      reset_ms: 3 * 3_600_000 + 5 * 60_000,
    });
    expect(view.level).toBe('full');
    expect(view.reset).toBe('Resets in 3 h 5 min (end of the UTC day)');
  });
});
