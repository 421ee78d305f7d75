import { useState } from 'react';

/** A form being typed: its values, the problems per field, and a setter that drops a field's stale problem. */
export interface Draft<F extends object> {
  readonly form: F;
  readonly errors: Partial<Record<keyof F, string>>;
  readonly setErrors: (errors: Partial<Record<keyof F, string>>) => void;
  readonly set: <K extends keyof F>(field: K, value: F[K]) => void;
}

/**
 * Holds a form's values and problems; changing a field clears its problem until the next check.
 * `linked` names the fields whose problem also depends on another's value ("Pick at least one scope"
 * is answered by typing a RAG collection), so changing that one clears theirs too.
 */
export function useDraft<F extends object>(
  initial: () => F,
  linked: Partial<Record<keyof F, readonly (keyof F)[]>> = {},
): Draft<F> {
  const [form, setForm] = useState<F>(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof F, string>>>({});
  const set = <K extends keyof F>(field: K, value: F[K]): void => {
    setForm((current) => ({ ...current, [field]: value }));
    // A message about a value that has since changed would be wrong; the next submit checks again.
    setErrors((current) => {
      const next: Partial<Record<keyof F, string>> = { ...current };
      for (const stale of [field, ...(linked[field] ?? [])]) delete next[stale];
      return next;
    });
  };
  return { form, errors, setErrors, set };
}
