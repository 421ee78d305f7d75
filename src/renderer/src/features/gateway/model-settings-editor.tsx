import { Badge } from '../../components/badge.js';
import { Button } from '../../components/button.js';
import { cellProblem } from '../../components/cell-problem.js';
import { Select, TextInput } from '../../components/field.js';
import { CloseIcon, PlusIcon } from '../../components/icons.js';
import { problemsAt, type FieldProblem } from '../../lib/field-problems.js';
import {
  ALIAS_FIELD_IDS,
  aliasTargetOf,
  NEW_MODEL_FIELD_ID,
  newAliasProblem,
  newModelProblem,
  PRICE_FIELD_IDS,
  capFieldId,
  capOf,
  type ModelSettingsDraft,
  type NewAlias,
  type PriceText,
} from './model-settings-form.js';
import { ActionsHeader } from '../../components/data-table.js';

/** Removes one key of a record. */
function without<T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> {
  const copy = { ...record };
  delete copy[key];
  return copy;
}

/** What an unpriced model's mark says on hover. */
const UNPRICED_TITLE =
  'No price: its requests cost $0, so dollar budgets and costs do not count them. Enter its input and output prices.';

/** A model's price or cap field, as typed, marked with its problem. */
function NumberCellInput({
  fieldId,
  label,
  value,
  problems,
  onChange,
  inputMode = 'decimal',
  placeholder = '—',
}: {
  readonly fieldId: string;
  readonly label: string;
  readonly value: string;
  readonly problems: readonly FieldProblem[];
  readonly onChange: (value: string) => void;
  readonly inputMode?: 'decimal' | 'numeric';
  readonly placeholder?: string;
}) {
  const problem = cellProblem(fieldId, problemsAt(problems, fieldId));
  return (
    <>
      <TextInput
        {...problem.control}
        className="input-narrow"
        aria-label={label}
        inputMode={inputMode}
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
      {problem.message}
    </>
  );
}

/**
 * The allow-list with each model's provider, max_tokens cap and prices; a model whose requests cost $0
 * (`unpriced`, as the gateway has it) is marked, unless prices are typed for it.
 */
export function AllowedModels({
  draft,
  providers,
  unpriced,
  problems,
  onChange,
  onRemove,
  adding,
  onAddingChange,
}: {
  readonly draft: ModelSettingsDraft;
  readonly providers: Readonly<Record<string, string>>;
  readonly unpriced: readonly string[];
  /** The price and cap fields' problems, by field id. */
  readonly problems: readonly FieldProblem[];
  readonly onChange: (draft: ModelSettingsDraft) => void;
  /** Asked to remove a model: the screen confirms first, naming what uses it. */
  readonly onRemove: (model: string) => void;
  /** The model being typed in the add row (held by the screen: Save must know of it). */
  readonly adding: string;
  readonly onAddingChange: (model: string) => void;
}) {
  const problem = cellProblem(NEW_MODEL_FIELD_ID, newModelProblem(draft, adding));
  const canAdd = adding.trim() !== '' && problem.message === undefined;
  const add = (): void => {
    if (!canAdd) return;
    const model = adding.trim();
    // A cap typed for it before it was last removed is not brought back.
    onChange({
      ...draft,
      allowed_models: [...draft.allowed_models, model],
      capText: { ...draft.capText, [model]: '' },
    });
    onAddingChange('');
  };
  const priceText = (model: string): PriceText => draft.priceText[model] ?? { input: '', output: '' };
  const setPrice = (model: string, side: keyof PriceText, value: string): void =>
    onChange({ ...draft, priceText: { ...draft.priceText, [model]: { ...priceText(model), [side]: value } } });
  return (
    <div className="data-table-scroll">
      <table className="data-table" aria-label="Allowed models" data-testid="allowed-models">
        <thead>
          <tr>
            <th>Model</th>
            <th>Provider</th>
            <th className="align-right">Max tokens cap</th>
            <th className="align-right" title="US dollars per million prompt tokens">
              Input $/M tokens
            </th>
            <th className="align-right" title="US dollars per million completion tokens">
              Output $/M tokens
            </th>
            <th>
              <ActionsHeader />
            </th>
          </tr>
        </thead>
        <tbody>
          {draft.allowed_models.map((model, index) => (
            <tr key={model}>
              <td className="mono">
                {model}{' '}
                {unpriced.includes(model) && priceText(model).input === '' && priceText(model).output === '' && (
                  <Badge tone="warning" title={UNPRICED_TITLE}>
                    unpriced
                  </Badge>
                )}
              </td>
              <td>{providers[model] ? <Badge>{providers[model]}</Badge> : <span className="muted">from name</span>}</td>
              <td className="align-right">
                <NumberCellInput
                  fieldId={capFieldId(index)}
                  label={`Max tokens for ${model}`}
                  inputMode="numeric"
                  placeholder="No cap"
                  value={draft.capText[model] ?? ''}
                  problems={problems}
                  onChange={(text) => {
                    // Kept as typed: a wrong value is shown and refused, never turned into another cap.
                    const cap = capOf(text);
                    onChange({
                      ...draft,
                      capText: { ...draft.capText, [model]: text },
                      per_model_max_tokens:
                        cap !== undefined
                          ? { ...draft.per_model_max_tokens, [model]: cap }
                          : without(draft.per_model_max_tokens, model),
                    });
                  }}
                />
              </td>
              <td className="align-right">
                <NumberCellInput
                  fieldId={PRICE_FIELD_IDS.input(index)}
                  label={`Input price for ${model}`}
                  value={priceText(model).input}
                  problems={problems}
                  onChange={(value) => setPrice(model, 'input', value)}
                />
              </td>
              <td className="align-right">
                <NumberCellInput
                  fieldId={PRICE_FIELD_IDS.output(index)}
                  label={`Output price for ${model}`}
                  value={priceText(model).output}
                  problems={problems}
                  onChange={(value) => setPrice(model, 'output', value)}
                />
              </td>
              <td className="align-right">
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Remove ${model}`}
                  onClick={() => onRemove(model)}
                >
                  <CloseIcon size={14} />
                </button>
              </td>
            </tr>
          ))}
          <tr className="add-row">
            <td colSpan={5}>
              <TextInput
                {...problem.control}
                aria-label="Model to allow"
                placeholder="openai/gpt-4o-mini, anthropic/claude-3-5-haiku, ollama/llama3…"
                value={adding}
                onChange={(event) => onAddingChange(event.target.value)}
                onKeyDown={(event) => event.key === 'Enter' && add()}
              />
              {problem.message}
            </td>
            <td className="align-right">
              <Button size="sm" icon={<PlusIcon />} onClick={add} disabled={!canAdd}>
                Allow model
              </Button>
            </td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}

/**
 * Aliases: names clients may send, rewritten to an allowed model. A listed alias the gateway would
 * refuse shows why on its row (`problems`, by the row's Remove button id); the one being typed shows
 * its problem as it is typed and cannot be added until it is fixed.
 */
export function Aliases({
  draft,
  onChange,
  adding,
  onAddingChange,
  problems,
}: {
  readonly draft: ModelSettingsDraft;
  readonly onChange: (draft: ModelSettingsDraft) => void;
  readonly adding: NewAlias;
  readonly onAddingChange: (alias: NewAlias) => void;
  readonly problems: readonly FieldProblem[];
}) {
  const target = aliasTargetOf(draft, adding);
  const problem = cellProblem(ALIAS_FIELD_IDS.newAlias, newAliasProblem(draft, { name: adding.name, target }));
  const canAdd = adding.name.trim() !== '' && target !== '' && problem.message === undefined;
  const add = (): void => {
    if (!canAdd) return;
    onChange({ ...draft, model_aliases: { ...draft.model_aliases, [adding.name.trim()]: target } });
    onAddingChange({ name: '', target: adding.target });
  };
  return (
    <div className="data-table-scroll">
      <table className="data-table" aria-label="Aliases" data-testid="aliases">
        <thead>
          <tr>
            <th>Alias</th>
            <th>Routes to</th>
            <th>
              <ActionsHeader />
            </th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(draft.model_aliases).map(([name, to], index) => {
            const rowId = ALIAS_FIELD_IDS.row(index);
            const rowProblem = cellProblem(rowId, problemsAt(problems, rowId));
            return (
              <tr key={name}>
                <td className="mono">
                  {name}
                  {rowProblem.message}
                </td>
                <td className="mono">
                  → {to}{' '}
                  {!draft.allowed_models.includes(to) && (
                    <Badge tone="warning" title="Requests through this alias will be refused">
                      not allowed
                    </Badge>
                  )}
                </td>
                <td className="align-right">
                  <button
                    type="button"
                    id={rowId}
                    className="icon-button"
                    aria-label={`Remove alias ${name}`}
                    aria-describedby={rowProblem.describedBy}
                    onClick={() => onChange({ ...draft, model_aliases: without(draft.model_aliases, name) })}
                  >
                    <CloseIcon size={14} />
                  </button>
                </td>
              </tr>
            );
          })}
          <tr className="add-row">
            <td>
              <TextInput
                {...problem.control}
                aria-label="Alias"
                placeholder="gpt-4o"
                value={adding.name}
                onChange={(event) => onAddingChange({ ...adding, name: event.target.value })}
                onKeyDown={(event) => event.key === 'Enter' && add()}
              />
              {problem.message}
            </td>
            <td>
              <Select
                aria-label="Alias target"
                value={target}
                onChange={(event) => onAddingChange({ ...adding, target: event.target.value })}
              >
                {draft.allowed_models.map((model) => (
                  <option key={model} value={model}>
                    {model}
                  </option>
                ))}
              </Select>
            </td>
            <td className="align-right">
              <Button size="sm" icon={<PlusIcon />} onClick={add} disabled={!canAdd}>
                Add alias
              </Button>
            </td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}
