import { useEffect, useState, type RefObject } from 'react';

/** A field the form marked as having a problem. */
const INVALID_FIELD = ':is(input, select, textarea)[aria-invalid="true"]:not([disabled])';

/**
 * Call the returned function after each submit of the form: once the update the submit caused is on
 * screen, focus moves to the first field the form marked invalid, if any. A refused submit so takes
 * the user to what to fix, in the form's order, instead of leaving them on the button.
 */
export function useFocusFirstProblem(form: RefObject<HTMLFormElement | null>): () => void {
  const [submits, setSubmits] = useState(0);
  // An effect, not the submit handler: the problems are on the fields only once the update that the
  // submit caused has been rendered.
  useEffect(() => {
    if (submits > 0) form.current?.querySelector<HTMLElement>(INVALID_FIELD)?.focus();
  }, [form, submits]);
  return () => setSubmits((count) => count + 1);
}
