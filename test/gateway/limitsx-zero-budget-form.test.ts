import { describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '../../src/shared/gateway-api.js';
import { keyLimitsForm, toKeyLimitsUpdate } from '../../src/renderer/src/features/gateway/key-limits-form.js';
import { principalForm, toUserCreate } from '../../src/renderer/src/features/gateway/people/principal-form.js';

// The UI's limit forms take the frozen budget the API takes: 0 dollars.

const key = {
  rpm_limit: null,
  tpm_limit: null,
  usd_daily_budget: 5,
  usd_monthly_budget: null,
  user_tpm_budget: null,
  user_tpd_budget: null,
  team_tpm_budget: null,
  team_tpd_budget: null,
} as ApiKeyRecord;

describe('a spend budget of 0 in the limit forms', () => {
  it("is sent as a key's budget", () => {
    expect(toKeyLimitsUpdate({ ...keyLimitsForm(key), usdDaily: '0' }, key)).toEqual({
      body: { usd_daily_budget: 0 },
      errors: {},
    });
  });

  it("is sent as a user's budget; a negative amount is still refused, saying 0 is allowed", () => {
    expect(toUserCreate({ ...principalForm(), id: 'frozen', usd: '0' }).body).toMatchObject({ usd_daily_budget: 0 });
    const negative = toUserCreate({ ...principalForm(), id: 'frozen', usd: '-1' });
    expect(negative.errors.usd).toContain('0 allows no spending');
  });
});
