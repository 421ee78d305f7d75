import { useState } from 'react';

/** A form being typed: its values, the problems per field, and a setter that drops a field's stale problem. */
export interface Draft<F extends object> {
  readonly form: F;
  readonly errors: Partial<Record<keyof F, string>>;
  readonly setErrors: (errors: Partial<Record<keyof F, string>>) => void;
  readonly set: <K extends keyof F>(field: K, value: F[K]) => void;
}

/** Holds a form's values and problems; changing a field clears its problem until the next check. */
export function useDraft<F extends object>(initial: () => F): Draft<F> {
  const [form, setForm] = useState<F>(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof F, string>>>({});
  const set = <K extends keyof F>(field: K, value: F[K]): void => {
    setForm((current) => ({ ...current, [field]: value }));
    // A message about a value that has since changed would be wrong; the next submit checks again.
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  return { form, errors, setErrors, set };
}
