import { describe, expect, it } from 'vitest';
import {
  capFieldId,
  capProblems,
  settingsDraftOf,
  settingsOfDraft,
  type ModelSettingsDraft,
} from '../../src/renderer/src/features/gateway/model-settings-form.js';

const settings = {
  allowed_models: ['gpt-main', 'claude-main'],
  model_aliases: {},
  per_model_max_tokens: { 'gpt-main': 100 },
  default_embedding_model: null,
  pricing: {},
};

const typed = (cap: string): ModelSettingsDraft => {
  const draft = settingsDraftOf(settings);
  return { ...draft, capText: { ...draft.capText, 'gpt-main': cap } };
};

/** The max_tokens cap is kept as typed: a wrong one is refused on its field, never saved as another number. */
describe('Models screen: the max tokens cap as typed', () => {
  it.each(['1.5', '-5', '0', 'abc', '4096.0', '1e3'])('refuses %s on the field, naming the rule', (cap) => {
    expect(capProblems(typed(cap))).toEqual([
      {
        fieldId: capFieldId(0),
        message:
          'Max tokens cap of "gpt-main": must be a whole number of tokens, 1 or more (leave it empty for no cap)',
      },
    ]);
  });

  it('saves a whole number as the cap, and an empty field as no cap', () => {
    expect(capProblems(typed(' 4096 '))).toEqual([]);
    expect(settingsOfDraft(typed(' 4096 ')).per_model_max_tokens).toEqual({ 'gpt-main': 4096 });
    expect(capProblems(typed(''))).toEqual([]);
    expect(settingsOfDraft(typed('')).per_model_max_tokens).toEqual({});
  });

  it('reads the saved caps back as typed text, so the original value typed again is no change', () => {
    const draft = settingsDraftOf(settings);
    expect(draft.capText).toEqual({ 'gpt-main': '100', 'claude-main': '' });
    expect(JSON.stringify(typed('100'))).toBe(JSON.stringify(draft));
  });
});
