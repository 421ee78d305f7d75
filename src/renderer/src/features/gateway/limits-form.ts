import type { FormFieldRef } from '../../lib/form-issues.js';
import { formatInt } from '../../lib/format.js';

/** How a limit field is typed: a whole count (requests, tokens) or an amount of dollars. */
export type LimitFieldKind = 'count' | 'usd';

/** A form field holding a limit: the body field it fills, and its label in the form. */
export interface LimitField<Body extends string> {
  readonly body: Body;
  readonly kind: LimitFieldKind;
  readonly label: string;
  /** The largest count the gateway takes for it, where it bounds one. */
  readonly max?: number;
}

/** A stored limit as the form shows it: empty for none. */
export function limitText(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}

const WHOLE = /^\d+$/;
const AMOUNT = /^(\d+(\.\d*)?|\.\d+)$/;

function parseLimit(
  text: string,
  { kind, label, max }: LimitField<string>,
): { readonly value: number | null } | { readonly error: string } {
  const trimmed = text.trim();
  if (!trimmed) return { value: null };
  // Written as people write amounts: Number() would also read 1e3 and 0x10, which the field never shows back.
  const number = (kind === 'count' ? WHOLE : AMOUNT).test(trimmed) ? Number(trimmed) : Number.NaN;
  if (kind === 'count' && max !== undefined)
    return Number.isInteger(number) && number > 0 && number <= max
      ? { value: number }
      : { error: `${label} must be a whole number from 1 to ${formatInt(max)}, or empty` };
  if (kind === 'count')
    return Number.isInteger(number) && number > 0
      ? { value: number }
      : { error: `${label} must be a whole number above 0, or empty` };
  // A budget of 0 freezes spending: every request is refused.
  return Number.isFinite(number) && number >= 0
    ? { value: number }
    : { error: `${label} must be an amount (e.g. 2.50; 0 allows no spending), or empty` };
}

/**
 * The body fields for a set of limit fields: a number, or `null` to clear one that was set. With
 * `before` (an edit) only changed fields are sent; without it (a creation) empty fields are left out.
 */
export function limitsBody<Form extends string, Body extends string>(
  form: Readonly<Record<NoInfer<Form>, string>>,
  fields: Readonly<Record<Form, LimitField<Body>>>,
  before?: Readonly<Record<Body, number | null>>,
): { readonly body: Partial<Record<Body, number | null>>; readonly errors: Partial<Record<Form, string>> } {
  const body: Partial<Record<Body, number | null>> = {};
  const errors: Partial<Record<Form, string>> = {};
  for (const name of Object.keys(fields) as Form[]) {
    const field = fields[name];
    const parsed = parseLimit(form[name], field);
    if ('error' in parsed) errors[name] = parsed.error;
    // A stored value the record leaves out reads as none, as the form shows it.
    else if (before ? parsed.value !== (before[field.body] ?? null) : parsed.value !== null)
      body[field.body] = parsed.value;
  }
  return { body, errors };
}

/** Where each body field of a set of limit fields is held in the form, for {@link parseForm}'s messages. */
export function limitFieldRefs<Form extends string>(
  fields: Readonly<Record<Form, LimitField<string>>>,
): Record<string, FormFieldRef<Form>> {
  return Object.fromEntries(
    (Object.keys(fields) as Form[]).map((field) => [fields[field].body, { field, label: fields[field].label }]),
  );
}
