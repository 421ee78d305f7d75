import { useState } from 'react';
import type { ModelSettings } from '../../../../shared/gateway-api.js';
import { Badge } from '../../components/badge.js';
import { Button } from '../../components/button.js';
import { Select, TextInput } from '../../components/field.js';
import { CloseIcon, PlusIcon } from '../../components/icons.js';

/** Removes one key of a record. */
function without<T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> {
  const copy = { ...record };
  delete copy[key];
  return copy;
}

/** The allow-list with each model's provider and max_tokens cap. */
export function AllowedModels({
  draft,
  providers,
  onChange,
}: {
  readonly draft: ModelSettings;
  readonly providers: Readonly<Record<string, string>>;
  readonly onChange: (draft: ModelSettings) => void;
}) {
  const [adding, setAdding] = useState('');
  const add = (): void => {
    const model = adding.trim();
    if (!model || draft.allowed_models.includes(model)) return;
    onChange({ ...draft, allowed_models: [...draft.allowed_models, model] });
    setAdding('');
  };
  return (
    <div className="data-table-scroll">
      <table className="data-table" aria-label="Allowed models" data-testid="allowed-models">
        <thead>
          <tr>
            <th>Model</th>
            <th>Provider</th>
            <th className="align-right">Max tokens cap</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {draft.allowed_models.map((model) => (
            <tr key={model}>
              <td className="mono">{model}</td>
              <td>{providers[model] ? <Badge>{providers[model]}</Badge> : <span className="muted">from name</span>}</td>
              <td className="align-right">
                <TextInput
                  className="input-narrow"
                  aria-label={`Max tokens for ${model}`}
                  inputMode="numeric"
                  placeholder="No cap"
                  value={draft.per_model_max_tokens[model] ?? ''}
                  onChange={(event) => {
                    const value = Number(event.target.value.replace(/\D/g, ''));
                    onChange({
                      ...draft,
                      per_model_max_tokens:
                        value > 0
                          ? { ...draft.per_model_max_tokens, [model]: value }
                          : without(draft.per_model_max_tokens, model),
                    });
                  }}
                />
              </td>
              <td className="align-right">
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Remove ${model}`}
                  onClick={() =>
                    onChange({
                      ...draft,
                      allowed_models: draft.allowed_models.filter((item) => item !== model),
                      per_model_max_tokens: without(draft.per_model_max_tokens, model),
                    })
                  }
                >
                  <CloseIcon size={14} />
                </button>
              </td>
            </tr>
          ))}
          <tr className="add-row">
            <td colSpan={3}>
              <TextInput
                aria-label="Model to allow"
                placeholder="openai/gpt-4o-mini, anthropic/claude-3-5-haiku, ollama/llama3…"
                value={adding}
                onChange={(event) => setAdding(event.target.value)}
                onKeyDown={(event) => event.key === 'Enter' && add()}
              />
            </td>
            <td className="align-right">
              <Button size="sm" icon={<PlusIcon />} onClick={add} disabled={!adding.trim()}>
                Allow
              </Button>
            </td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}

/** Aliases: names clients may send, rewritten to an allowed model. */
export function Aliases({
  draft,
  onChange,
}: {
  readonly draft: ModelSettings;
  readonly onChange: (draft: ModelSettings) => void;
}) {
  const [alias, setAlias] = useState('');
  const [target, setTarget] = useState('');
  const add = (): void => {
    const name = alias.trim();
    const to = target || draft.allowed_models[0];
    if (!name || !to) return;
    onChange({ ...draft, model_aliases: { ...draft.model_aliases, [name]: to } });
    setAlias('');
  };
  return (
    <div className="data-table-scroll">
      <table className="data-table" aria-label="Aliases" data-testid="aliases">
        <thead>
          <tr>
            <th>Alias</th>
            <th>Routes to</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {Object.entries(draft.model_aliases).map(([name, to]) => (
            <tr key={name}>
              <td className="mono">{name}</td>
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
                  className="icon-button"
                  aria-label={`Remove alias ${name}`}
                  onClick={() => onChange({ ...draft, model_aliases: without(draft.model_aliases, name) })}
                >
                  <CloseIcon size={14} />
                </button>
              </td>
            </tr>
          ))}
          <tr className="add-row">
            <td>
              <TextInput
                aria-label="Alias"
                placeholder="gpt-4o"
                value={alias}
                onChange={(event) => setAlias(event.target.value)}
                onKeyDown={(event) => event.key === 'Enter' && add()}
              />
            </td>
            <td>
              <Select
                aria-label="Alias target"
                value={target || draft.allowed_models[0] || ''}
                onChange={(event) => setTarget(event.target.value)}
              >
                {draft.allowed_models.map((model) => (
                  <option key={model} value={model}>
                    {model}
                  </option>
                ))}
              </Select>
            </td>
            <td className="align-right">
              <Button
                size="sm"
                icon={<PlusIcon />}
                onClick={add}
                disabled={!alias.trim() || draft.allowed_models.length === 0}
              >
                Add
              </Button>
            </td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}
