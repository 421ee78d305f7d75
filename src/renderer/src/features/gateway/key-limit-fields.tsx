import { DraftTextField } from '../../components/field.js';
import { KEY_LIMIT_FIELDS, type KeyLimitsForm } from './key-limits-form.js';
import { UnpricedBudgetNote } from './unpriced-budget-note.js';

/** A form holding a key's limits (perhaps among other fields), as the key dialogs type it. */
interface KeyLimitsDraft {
  readonly form: KeyLimitsForm;
  readonly errors: Partial<Record<keyof KeyLimitsForm, string>>;
  readonly set: (field: keyof KeyLimitsForm, value: string) => void;
}

/**
 * A key's rate limits, its cap on requests in flight, its own spend budgets and its caps on its share of
 * its user's and team's token budgets, labelled and checked alike in the dialog that issues a key and the one that edits its limits.
 * The spend budgets say which of the models the key may use they leave out for want of a price.
 */
export function KeyLimitFields({
  draft,
  models,
}: {
  readonly draft: KeyLimitsDraft;
  /** The key's model allow-list (null or undefined: every allowed model). */
  readonly models?: readonly string[] | null | undefined;
}) {
  const number = (field: keyof KeyLimitsForm, hint?: string) => (
    <DraftTextField
      draft={draft}
      field={field}
      idPrefix="key-limit"
      label={KEY_LIMIT_FIELDS[field].label}
      hint={hint}
      inputMode={KEY_LIMIT_FIELDS[field].kind === 'usd' ? 'decimal' : 'numeric'}
      placeholder={KEY_LIMIT_FIELDS[field].kind === 'usd' ? 'No budget' : 'No limit'}
    />
  );
  return (
    <>
      <div className="form-section form-span">Rate limits of the key (refilled over a minute)</div>
      {number('rpm')}
      {number('tpm')}
      <div className="form-section form-span">Concurrency of the key</div>
      {number('parallel', "A stream counts until it ends. Empty: the gateway's default for keys, if any.")}
      <div className="form-section form-span">
        Spend budgets of the key (its own requests, per UTC day and month; priced models only)
      </div>
      {number('usdDaily')}
      {number('usdMonthly')}
      <UnpricedBudgetNote models={models} />
      <div className="form-section form-span">
        This key's cap on its share of its user's and team's token budgets (per UTC minute and day)
      </div>
      <p className="field-hint form-span" data-testid="key-share-caps-hint">
        Caps what the key may use of its user's or team's budget: the tighter of this cap and the user's or team's own
        budget applies, so a value above theirs changes nothing. Their own budgets are set under Users & teams.
      </p>
      {number('userTpm')}
      {number('userTpd')}
      {number('teamTpm')}
      {number('teamTpd')}
    </>
  );
}
