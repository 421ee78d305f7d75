import { useEffect } from 'react';
import { ApiError } from '../../api/http.js';
import { fieldOfPath, problemText, type CollectionForm, type CollectionFormErrors } from './collection-form.js';

/** What the dialog shows of a gateway refusal: problems at their fields, and whether any part named no field. */
export interface CollectionRefusal {
  readonly errors: CollectionFormErrors;
  /** Some part of the refusal is about no field of the form: the dialog shows the whole message too. */
  readonly unplaced: boolean;
}

// The gateway joins a body's problems with "; ", each starting with the field it is about
// (`access.keys[0]: no API key with id …`); a message may hold "; " itself, so it splits only before a field.
const PART = /; (?=(?:description|access|source)\b)/;
const FIELD_PREFIX = /^((?:description|access|source)(?:\.[a-z]+)?)(?:\[(\d+)\])?:?\s+/;

/**
 * Puts a 400 of the collections API at the form fields its message names (`access.users[1]` at Users,
 * the entry named by the value that was sent). Any other failure, or part, stays the dialog's.
 */
export function collectionRefusal(
  error: unknown,
  sent: { readonly access?: Partial<Record<string, readonly string[]>> },
  readerKeys?: readonly string[],
): CollectionRefusal {
  if (!(error instanceof ApiError) || error.status !== 400) return { errors: {}, unplaced: true };
  const errors: CollectionFormErrors = {};
  let unplaced = false;
  for (const part of error.message.split(PART)) {
    const match = FIELD_PREFIX.exec(part);
    const field: keyof CollectionForm | undefined = match ? fieldOfPath(match[1]!) : undefined;
    if (!match || !field) {
      unplaced = true;
      continue;
    }
    const list = match[1]!.startsWith('access.') ? sent.access?.[match[1]!.slice('access.'.length)] : undefined;
    const entry = match[2] === undefined ? undefined : list?.[Number(match[2])];
    // A reader key refused and since removed from the form (its chip, no change event): nothing to fix there.
    if (field === 'keys' && entry !== undefined && readerKeys !== undefined && !readerKeys.includes(entry)) continue;
    errors[field] ??= problemText(part.slice(match[0].length), field, entry);
  }
  return { errors, unplaced };
}

/**
 * The gateway's refusal of a dialog's last request as the dialog shows it: problems at their fields
 * (focused once they are on screen, as after a refused submit), and the error shown under the form
 * only when some part of it names no field (else null: FormDialog reads `undefined` as "show the
 * request's error"). FormDialog forgets the refusal once a field changes.
 */
export function useCollectionRefusal(
  error: unknown,
  sent: { readonly access?: Partial<Record<string, readonly string[]>> } | undefined,
  dialogTestId: string,
  /** The reader keys the form holds now. */
  readerKeys?: readonly string[],
): { readonly errors: CollectionFormErrors; readonly shownError: unknown } {
  const refusal = error ? collectionRefusal(error, sent ?? {}, readerKeys) : { errors: {}, unplaced: false };
  const placed = Object.keys(refusal.errors).length > 0;
  useEffect(() => {
    if (!placed) return;
    document
      .querySelector<HTMLElement>(`[data-testid="${dialogTestId}"] :is(input, select, textarea)[aria-invalid="true"]`)
      ?.focus();
  }, [error, placed, dialogTestId]);
  return { errors: refusal.errors, shownError: refusal.unplaced ? error : null };
}
