import { modelSettingsOf, type ModelSettings } from '../../../../shared/gateway-api.js';
import { aliasBreaks, type AliasBreak } from '../../../../shared/model-aliases.js';
import type { FieldProblem } from '../../lib/field-problems.js';
import { assertNever } from '../../../../shared/assert-never.js';

type AliasSettings = Pick<ModelSettings, 'allowed_models' | 'model_aliases'>;
/** Settings of which only the allow-list and aliases are read (the rest may be there or not). */
type DraftSettings = AliasSettings & Partial<ModelSettings>;

/** The alias being typed in the add row: its name and the model it would route to. */
export interface NewAlias {
  readonly name: string;
  readonly target: string;
}

/** The ids of the Models screen's alias controls, so a problem can point at (and focus) the one to fix. */
export const ALIAS_FIELD_IDS = {
  newAlias: 'new-alias',
  /** A listed alias's Remove button (by the alias's position: names may hold any character). */
  row: (index: number) => `alias-${index}-remove`,
} as const;

/** The model an alias being added routes to: the one chosen, while it is still allowed, else the first allowed. */
export function aliasTargetOf(draft: DraftSettings, alias: NewAlias): string {
  return draft.allowed_models.includes(alias.target) ? alias.target : (draft.allowed_models[0] ?? '');
}

/** The gateway's alias rule in the form's words: the alias named as the subject, then what is wrong. */
function aliasMessage(found: AliasBreak): string {
  switch (found.kind) {
    case 'self':
      return `Alias "${found.alias}" points at itself`;
    case 'allowed_model':
      return `Alias "${found.alias}" is already an allowed model name: rename the alias or remove the model`;
    case 'chained':
      return found.next === undefined
        ? `Alias "${found.alias}" routes to "${found.target}", an alias in a loop of aliases that never resolves: route it to an allowed model`
        : `Alias "${found.alias}" routes to "${found.target}", which is itself an alias (aliases resolve in one step): route it to "${found.next}"`;
    default:
      return assertNever(found);
  }
}

/** What keeps the listed aliases from being saved, each on its alias's row (the gateway refuses them all). */
export function aliasProblems(settings: AliasSettings): readonly FieldProblem[] {
  const index = new Map(Object.keys(settings.model_aliases).map((alias, i) => [alias, i]));
  return aliasBreaks(settings).map((found) => ({
    fieldId: ALIAS_FIELD_IDS.row(index.get(found.alias)!),
    message: aliasMessage(found),
  }));
}

/**
 * What is wrong with adding the alias being typed, or undefined (nothing typed yet is not a problem).
 * The gateway's rule decides, on the aliases as they would be with it: about the new alias itself, or
 * about one already listed that it would break (an alias routing to the new name).
 */
export function newAliasProblem(settings: AliasSettings, alias: NewAlias): string | undefined {
  const name = alias.name.trim();
  if (name === '') return undefined;
  if (Object.hasOwn(settings.model_aliases, name))
    return `Alias "${name}" already exists (it routes to "${settings.model_aliases[name]}"): remove it first to route it elsewhere`;
  // A name taken by an allowed model is wrong whatever the target (even the model itself): say that first.
  if (settings.allowed_models.includes(name))
    return aliasMessage({ kind: 'allowed_model', alias: name, target: alias.target });
  if (alias.target === '') return undefined;
  const before = new Set(aliasBreaks(settings).map((found) => found.alias));
  const after = aliasBreaks({ ...settings, model_aliases: { ...settings.model_aliases, [name]: alias.target } });
  const own = after.find((found) => found.alias === name);
  if (own) return aliasMessage(own);
  const broken = after.find((found) => !before.has(found.alias));
  return (
    broken &&
    `Alias "${broken.alias}" routes to "${name}", and aliases resolve in one step: "${name}" cannot be an alias too`
  );
}

/** The id of the Models screen's "Model to allow" field. */
export const NEW_MODEL_FIELD_ID = 'new-model';

/** What is wrong with allowing the model being typed, or undefined (nothing typed yet is not a problem). */
export function newModelProblem(settings: AliasSettings, name: string): string | undefined {
  const model = name.trim();
  return model !== '' && settings.allowed_models.includes(model) ? `Model "${model}" is already allowed` : undefined;
}

/**
 * What is typed in the add rows and not added: Save would leave it out without a word, so it keeps the
 * draft from being saved until it is added or cleared. A problem with it is reported as such.
 */
export function typedEntryProblems(draft: DraftSettings, newModel: string, newAlias: NewAlias): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const model = newModel.trim();
  if (model !== '')
    problems.push({
      fieldId: NEW_MODEL_FIELD_ID,
      message:
        newModelProblem(draft, model) ??
        `Model "${model}" is typed but not allowed yet: press Allow model, or clear the field`,
    });
  const alias = newAlias.name.trim();
  if (alias !== '')
    problems.push({
      fieldId: ALIAS_FIELD_IDS.newAlias,
      message:
        newAliasProblem(draft, { name: alias, target: aliasTargetOf(draft, newAlias) }) ??
        `Alias "${alias}" is typed but not added yet: press Add alias, or clear the field`,
    });
  return problems;
}

/** A model's prices as typed: US dollars per million tokens, empty for none. */
export interface PriceText {
  readonly input: string;
  readonly output: string;
}

/**
 * The Models screen's draft of the model settings: the settings, and the prices and max_tokens caps of the
 * allowed models as typed (a number half typed, `2.`, must stay as it is, and a wrong one must be shown
 * as typed, never quietly turned into another). `pricing` keeps every other price as it came (cache
 * prices, prices under an upstream model's name), which the screen does not edit.
 */
export type ModelSettingsDraft = ModelSettings & {
  readonly priceText: Readonly<Record<string, PriceText>>;
  readonly capText: Readonly<Record<string, string>>;
};

/** The largest price the gateway takes (as the configuration file's `pricing`). */
const MAX_PRICE = 1e12;

/** The ids of a model's price fields (by the model's position: names may hold any character). */
export const PRICE_FIELD_IDS = {
  input: (index: number) => `price-${index}-input`,
  output: (index: number) => `price-${index}-output`,
} as const;

/** The id of a model's max_tokens cap field (by the model's position, as the prices'). */
export const capFieldId = (index: number): string => `cap-${index}`;

/** The draft of settings as the gateway has them. */
export function settingsDraftOf(settings: ModelSettings): ModelSettingsDraft {
  const priceText: Record<string, PriceText> = {};
  const capText: Record<string, string> = {};
  for (const model of settings.allowed_models) {
    const cap = settings.per_model_max_tokens[model];
    capText[model] = cap === undefined ? '' : String(cap);
    const price = settings.pricing[model];
    priceText[model] = price
      ? { input: String(price.input_per_mtok), output: String(price.output_per_mtok) }
      : { input: '', output: '' };
  }
  return { ...modelSettingsOf(settings), priceText, capText };
}

/** A typed cap: a whole number of tokens, 1 or more (as the gateway takes), else undefined. */
export function capOf(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/** What keeps the typed caps from being saved, on the field to fix; an empty field means no cap. */
export function capProblems(draft: ModelSettingsDraft): FieldProblem[] {
  const problems: FieldProblem[] = [];
  draft.allowed_models.forEach((model, index) => {
    const typed = (draft.capText[model] ?? '').trim();
    if (typed !== '' && capOf(typed) === undefined)
      problems.push({
        fieldId: capFieldId(index),
        message: `Max tokens cap of "${model}": must be a whole number of tokens, 1 or more (leave it empty for no cap)`,
      });
  });
  return problems;
}

/** A typed price, or undefined when it is not one the gateway takes. */
function priceOf(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d*\.?\d+$|^\d+\.$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) && value <= MAX_PRICE ? value : undefined;
}

/** What keeps the typed prices from being saved, on the field to fix (the gateway's bounds, in the form's words). */
export function priceProblems(draft: ModelSettingsDraft): FieldProblem[] {
  const problems: FieldProblem[] = [];
  draft.allowed_models.forEach((model, index) => {
    const text = draft.priceText[model] ?? { input: '', output: '' };
    if (text.input.trim() === '' && text.output.trim() === '') return;
    for (const side of ['input', 'output'] as const) {
      const typed = text[side].trim();
      const fieldId = PRICE_FIELD_IDS[side](index);
      const label = `${side === 'input' ? 'Input' : 'Output'} price of "${model}"`;
      if (typed === '')
        problems.push({
          fieldId,
          message: `${label}: enter it too (a price has both sides; 0 for none), or clear the other`,
        });
      else if (priceOf(typed) === undefined)
        problems.push({
          fieldId,
          message: `${label}: must be a number of US dollars per million tokens, from 0 to 1000000000000`,
        });
    }
  });
  return problems;
}

/**
 * The settings to save: each allowed model's typed prices over its price (its cache prices kept), none
 * where both are cleared, and its typed cap (none where cleared). Only for a draft without price or cap
 * problems.
 */
export function settingsOfDraft(draft: ModelSettingsDraft): ModelSettings {
  const pricing = { ...draft.pricing };
  for (const model of draft.allowed_models) {
    const text = draft.priceText[model];
    if (!text) continue;
    const input = priceOf(text.input);
    const output = priceOf(text.output);
    if (input === undefined || output === undefined) delete pricing[model];
    else pricing[model] = { ...pricing[model], input_per_mtok: input, output_per_mtok: output };
  }
  const caps = { ...draft.per_model_max_tokens };
  for (const model of draft.allowed_models) {
    const text = draft.capText[model];
    if (text === undefined) continue;
    const cap = capOf(text);
    if (cap === undefined) delete caps[model];
    else caps[model] = cap;
  }
  const { priceText: _typed, capText: _typedCaps, ...settings } = draft;
  return { ...settings, per_model_max_tokens: caps, pricing };
}
