import { useId } from 'react';
import { PLAIN_SCOPES, type PlainScope } from '../../../../shared/gateway-api.js';
import { useModelSettings } from '../../api/gateway-queries.js';
import { useTeams, useUsers } from '../../api/principals-queries.js';
import { Field, Select, TextInput } from '../../components/field.js';
import { KEY_ACCESS_LABELS, newOwnerName, ownerHint, type KeyAccessForm } from './key-access-form.js';

// Every scope of the shared list, each with its hint: a scope added there without one fails the typecheck.
const SCOPE_HINTS: Readonly<Record<PlainScope, string>> = {
  chat: 'Chat completions and Messages',
  embeddings: 'Embeddings',
  responses: 'Responses API',
  metrics: 'Scrape /metrics (when gateway.metrics_public is false), nothing else',
  '*': 'Everything',
};
const SCOPES = PLAIN_SCOPES.map((scope) => ({ value: scope, label: scope, hint: SCOPE_HINTS[scope] }));

/** Expiry choices counted from now, after the dialog's own first choices ("Never", "Keep …"). */
export const EXPIRY_IN_DAYS = [
  { value: '1', label: 'In 1 day' },
  { value: '7', label: 'In 7 days' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In a year' },
] as const;

/** A form holding a key's owner and access (perhaps among other fields), as the key dialogs type it. */
interface KeyAccessDraft {
  readonly form: KeyAccessForm;
  readonly errors: Partial<Record<keyof KeyAccessForm, string>>;
  // A method, so a draft of a larger form (the access fields among its limits) fits too.
  set<K extends keyof KeyAccessForm>(field: K, value: KeyAccessForm[K]): void;
}

function toggle(list: readonly string[], value: string): string[] {
  return list.includes(value) ? list.filter((item) => item !== value) : [...list, value];
}

/**
 * A key's name, owner, expiry, scopes, RAG collections and model allow-list, labelled and checked
 * alike in the dialog that issues a key and the one that edits it.
 */
export function KeyAccessFields({
  draft,
  expiry,
  owners,
  teamCreation,
}: {
  readonly draft: KeyAccessDraft;
  /** The expiry choices, in order. */
  readonly expiry: readonly { readonly value: string; readonly label: string }[];
  /**
   * Issuing a key creates a user or team it names; changing a key only moves it to existing ones (a
   * typo must not move a key out from under its team's budgets), so the hints say which applies.
   */
  readonly owners: 'created' | 'existing';
  /**
   * Issuing only: the new team name the user agreed to create, and how they agree. A typo of a team
   * would otherwise make a team of its own with no limits, escaping the budgets of the one meant.
   */
  readonly teamCreation?: { readonly confirmed: string; readonly confirm: (name: string) => void };
}) {
  const { form, errors, set } = draft;
  const models = useModelSettings();
  const users = useUsers();
  const teams = useTeams();
  const scopesErrorId = useId();
  const knownUsers = users.data?.data.map((user) => user.id);
  const knownTeams = teams.data?.data.map((team) => team.id);
  const newTeam = newOwnerName(form.team, knownTeams);
  // A key may hold a model since taken off the allow-list: it stays listed, so saving does not drop it.
  const choices = [...new Set([...(models.data?.allowed_models ?? []), ...form.models])];
  const text = (
    field: 'name' | 'user' | 'team',
    extra: { readonly hint?: string; readonly placeholder?: string; readonly list?: string },
  ) => (
    <Field label={KEY_ACCESS_LABELS[field]} htmlFor={`key-${field}`} hint={extra.hint} error={errors[field]}>
      <TextInput
        id={`key-${field}`}
        placeholder={extra.placeholder}
        list={extra.list}
        value={form[field]}
        onChange={(event) => {
          set(field, event.target.value);
          // A yes given to one name is not one to the next: each name typed anew asks again.
          if (field === 'team') teamCreation?.confirm('');
        }}
      />
    </Field>
  );
  return (
    <>
      {text('name', { hint: 'What the key is for, e.g. ci-pipeline.' })}
      {text('user', {
        placeholder: 'alice@example.com',
        list: 'key-known-users',
        hint: ownerHint('user', form.user, knownUsers, owners),
      })}
      {text('team', {
        placeholder: 'platform',
        list: 'key-known-teams',
        hint: ownerHint('team', form.team, knownTeams, owners),
      })}
      {teamCreation && newTeam !== undefined && (
        <label className="checkbox form-span" data-testid="confirm-new-team">
          <input
            type="checkbox"
            checked={teamCreation.confirmed === newTeam}
            onChange={(event) => teamCreation.confirm(event.target.checked ? newTeam : '')}
          />
          <span>Create team “{newTeam}” with no limits (required to issue the key)</span>
        </label>
      )}
      <datalist id="key-known-users">
        {(knownUsers ?? []).map((id) => (
          <option key={id} value={id} />
        ))}
      </datalist>
      <datalist id="key-known-teams">
        {(knownTeams ?? []).map((id) => (
          <option key={id} value={id} />
        ))}
      </datalist>
      <Field label={KEY_ACCESS_LABELS.expiresInDays} htmlFor="key-expiry" error={errors.expiresInDays}>
        <Select
          id="key-expiry"
          value={form.expiresInDays}
          onChange={(event) => set('expiresInDays', event.target.value)}
        >
          {expiry.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </Select>
      </Field>
      <fieldset className="form-span fieldset">
        <legend className="field-label">{KEY_ACCESS_LABELS.scopes}</legend>
        <div className="chip-row">
          {SCOPES.map((scope) => (
            <label key={scope.value} className="chip-check" title={scope.hint}>
              <input
                type="checkbox"
                {...(errors.scopes ? { 'aria-invalid': true, 'aria-describedby': scopesErrorId } : {})}
                checked={form.scopes.includes(scope.value)}
                onChange={() => set('scopes', toggle(form.scopes, scope.value))}
              />
              <span className="mono">{scope.label}</span>
            </label>
          ))}
        </div>
        {errors.scopes && (
          <div className="field-error" id={scopesErrorId}>
            {errors.scopes}
          </div>
        )}
      </fieldset>
      <Field
        label={KEY_ACCESS_LABELS.ragCollections}
        htmlFor="key-rag"
        error={errors.ragCollections}
        hint="Comma separated; * for all. Adds rag:<collection> scopes."
      >
        <TextInput
          id="key-rag"
          placeholder="docs, wiki"
          value={form.ragCollections}
          onChange={(event) => set('ragCollections', event.target.value)}
        />
      </Field>
      <fieldset className="fieldset">
        <legend className="field-label">{KEY_ACCESS_LABELS.models}</legend>
        <div className="chip-row">
          {choices.map((model) => (
            <label key={model} className="chip-check">
              <input
                type="checkbox"
                checked={form.models.includes(model)}
                onChange={() => set('models', toggle(form.models, model))}
              />
              <span className="mono">{model}</span>
            </label>
          ))}
        </div>
        <div className="field-hint">
          {form.models.length ? 'Only the checked models.' : 'None checked: every allowed model.'}
        </div>
      </fieldset>
    </>
  );
}
