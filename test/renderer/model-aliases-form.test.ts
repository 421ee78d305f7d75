import { describe, expect, it } from 'vitest';
import {
  ALIAS_FIELD_IDS,
  aliasProblems,
  aliasTargetOf,
  newAliasProblem,
  NEW_MODEL_FIELD_ID,
  typedEntryProblems,
} from '../../src/renderer/src/features/gateway/model-settings-form.js';
import { aliasBreaks } from '../../src/shared/model-aliases.js';

const settings = (model_aliases: Record<string, string>, allowed_models = ['demo/echo', 'gpt-4o']) => ({
  allowed_models,
  model_aliases,
});

describe('the gateway alias rule, shared with the UI', () => {
  it('finds every alias that cannot work, one break per alias, in listed order', () => {
    expect(
      aliasBreaks(settings({ loop: 'loop', 'gpt-4o': 'demo/echo', fast: 'quick', quick: 'demo/echo', ok: 'x/y' })),
    ).toEqual([
      { kind: 'self', alias: 'loop' },
      { kind: 'allowed_model', alias: 'gpt-4o', target: 'demo/echo' },
      { kind: 'chained', alias: 'fast', target: 'quick', next: 'demo/echo' },
    ]);
  });

  it('accepts an alias whose target is not (yet) allowed', () => {
    expect(aliasBreaks(settings({ later: 'anthropic/claude' }))).toEqual([]);
  });
});

describe('alias problems on the Models screen', () => {
  it('refuses, as typed, an alias named like an allowed model, saying so with the field as subject', () => {
    expect(newAliasProblem(settings({}), { name: 'gpt-4o', target: 'demo/echo' })).toBe(
      'Alias "gpt-4o" is already an allowed model name: rename the alias or remove the model',
    );
    expect(newAliasProblem(settings({}), { name: ' gpt-4o ', target: 'gpt-4o' })).toMatch(
      /^Alias "gpt-4o" is already an allowed model name/,
    );
  });

  it('refuses a name already listed (adding it would silently reroute it)', () => {
    expect(newAliasProblem(settings({ fast: 'demo/echo' }), { name: 'fast', target: 'gpt-4o' })).toBe(
      'Alias "fast" already exists (it routes to "demo/echo"): remove it first to route it elsewhere',
    );
  });

  it('refuses a new alias that would turn a listed alias into a chain', () => {
    // "fast" routes to a model not allowed yet; an alias of that name would make "fast" resolve in two steps.
    expect(newAliasProblem(settings({ fast: 'openai/gpt-5' }), { name: 'openai/gpt-5', target: 'demo/echo' })).toBe(
      'Alias "fast" routes to "openai/gpt-5", and aliases resolve in one step: "openai/gpt-5" cannot be an alias too',
    );
  });

  it('has nothing to say about an empty field or a good alias, nor about a listed alias that was broken already', () => {
    expect(newAliasProblem(settings({}), { name: '  ', target: 'demo/echo' })).toBeUndefined();
    expect(newAliasProblem(settings({}), { name: 'quick', target: 'demo/echo' })).toBeUndefined();
    expect(newAliasProblem(settings({ loop: 'loop' }), { name: 'quick', target: 'demo/echo' })).toBeUndefined();
  });

  it('puts each listed alias the gateway would refuse on its own row', () => {
    expect(aliasProblems(settings({ ok: 'demo/echo', loop: 'loop', 'gpt-4o': 'demo/echo', a: 'ok' }))).toEqual([
      { fieldId: ALIAS_FIELD_IDS.row(1), message: 'Alias "loop" points at itself' },
      {
        fieldId: ALIAS_FIELD_IDS.row(2),
        message: 'Alias "gpt-4o" is already an allowed model name: rename the alias or remove the model',
      },
      {
        fieldId: ALIAS_FIELD_IDS.row(3),
        message:
          'Alias "a" routes to "ok", which is itself an alias (aliases resolve in one step): route it to "demo/echo"',
      },
    ]);
    expect(aliasProblems(settings({ ok: 'demo/echo' }))).toEqual([]);
  });

  it('routes a new alias to the chosen model while it is allowed, else to the first allowed one', () => {
    expect(
      aliasTargetOf(
        { ...settings({}), per_model_max_tokens: {}, default_embedding_model: null },
        { name: 'x', target: 'gpt-4o' },
      ),
    ).toBe('gpt-4o');
    expect(
      aliasTargetOf(
        { ...settings({}), per_model_max_tokens: {}, default_embedding_model: null },
        { name: 'x', target: 'gone' },
      ),
    ).toBe('demo/echo');
    expect(
      aliasTargetOf(
        { ...settings({}, []), per_model_max_tokens: {}, default_embedding_model: null },
        { name: 'x', target: '' },
      ),
    ).toBe('');
  });
});

describe('what is typed in the add rows and not added', () => {
  const draft = { ...settings({ fast: 'demo/echo' }), per_model_max_tokens: {}, default_embedding_model: null };

  it('keeps the draft from being saved, on the field to add it from', () => {
    expect(typedEntryProblems(draft, ' openai/o3 ', { name: 'quick', target: 'gpt-4o' })).toEqual([
      {
        fieldId: NEW_MODEL_FIELD_ID,
        message: 'Model "openai/o3" is typed but not allowed yet: press Allow model, or clear the field',
      },
      {
        fieldId: ALIAS_FIELD_IDS.newAlias,
        message: 'Alias "quick" is typed but not added yet: press Add alias, or clear the field',
      },
    ]);
  });

  it('reports what is wrong with it instead, when something is', () => {
    expect(typedEntryProblems(draft, 'gpt-4o', { name: 'fast', target: 'gpt-4o' }).map((p) => p.message)).toEqual([
      'Model "gpt-4o" is already allowed',
      'Alias "fast" already exists (it routes to "demo/echo"): remove it first to route it elsewhere',
    ]);
  });

  it('empty or blank fields are no problem', () => {
    expect(typedEntryProblems(draft, '  ', { name: ' ', target: '' })).toEqual([]);
  });
});
