import { describe, expect, it } from 'vitest';
import { LIMIT_TYPES, type LimitType } from '../../src/shared/principals-api.js';
import { KEY_LIMIT_FIELDS } from '../../src/renderer/src/features/gateway/key-limits-form.js';
import { PRINCIPAL_LABELS } from '../../src/renderer/src/features/gateway/people/principal-form.js';
import { limitMeterView } from '../../src/renderer/src/lib/limit-status.js';

/** What a meter of this kind of limit calls it (after its owner). */
const meterWords = (type: LimitType): string =>
  limitMeterView({ limit_type: type, subject: 'key', limit: 10, used: 1, remaining: 9, reset_ms: 1000 }).what;

/** The form labels that set each kind of limit, as a person reads them. */
const FORM_LABELS: Record<LimitType, readonly string[]> = {
  requests: [KEY_LIMIT_FIELDS.rpm.label, PRINCIPAL_LABELS.rpm],
  tokens: [KEY_LIMIT_FIELDS.tpm.label, PRINCIPAL_LABELS.tpm],
  user_minute: [KEY_LIMIT_FIELDS.userTpm.label, PRINCIPAL_LABELS.tpmBudget],
  team_minute: [KEY_LIMIT_FIELDS.teamTpm.label, PRINCIPAL_LABELS.tpmBudget],
  user_daily: [KEY_LIMIT_FIELDS.userTpd.label, PRINCIPAL_LABELS.tpdBudget],
  team_daily: [KEY_LIMIT_FIELDS.teamTpd.label, PRINCIPAL_LABELS.tpdBudget],
  user_cost_daily: [PRINCIPAL_LABELS.usd],
  team_cost_daily: [PRINCIPAL_LABELS.usd],
  key_cost_daily: [KEY_LIMIT_FIELDS.usdDaily.label],
  user_cost_monthly: [PRINCIPAL_LABELS.usdMonthly],
  team_cost_monthly: [PRINCIPAL_LABELS.usdMonthly],
  key_cost_monthly: [KEY_LIMIT_FIELDS.usdMonthly.label],
  parallel_requests: [KEY_LIMIT_FIELDS.parallel.label, PRINCIPAL_LABELS.parallel],
};

describe('one name per kind of limit', () => {
  it.each(LIMIT_TYPES)('the %s meter and every form field that sets it use the same words', (type) => {
    const words = meterWords(type);
    for (const label of FORM_LABELS[type]) {
      // The keys' budgets for a user or team put the owner first; the spend budget adds its unit.
      const bare = label.replace(/^(User|Team) /, '').replace(/ \(USD\)$/, '');
      expect(bare.toLowerCase(), label).toBe(words);
    }
  });

  it('keeps the owner of a key’s budget in its label, and the day and minute apart', () => {
    expect(KEY_LIMIT_FIELDS.teamTpd.label).toBe('Team token budget per day');
    expect(KEY_LIMIT_FIELDS.userTpm.label).toBe('User token budget per minute');
    expect(new Set(LIMIT_TYPES.map(meterWords)).size).toBe(7);
  });
});
