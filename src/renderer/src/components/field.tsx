import { createContext, useContext, useId, type ComponentProps, type ReactNode } from 'react';

/** What a {@link Field} tells the control inside it: whether it is invalid and which texts describe it. */
const FieldContext = createContext<{ readonly invalid: boolean; readonly describedBy?: string } | undefined>(undefined);

/** The ARIA attributes a control takes from the field around it (its own props still win). */
function useFieldAria(): { 'aria-invalid'?: true; 'aria-describedby'?: string } {
  const field = useContext(FieldContext);
  return {
    ...(field?.invalid ? { 'aria-invalid': true } : {}),
    ...(field?.describedBy ? { 'aria-describedby': field.describedBy } : {}),
  };
}

/**
 * A labelled form row with an optional error and hint under it. The inputs inside it are marked
 * `aria-invalid` when there is an error and described by the error and hint, so a screen reader
 * reads the problem with the field.
 */
export function Field({
  label,
  hint,
  error,
  children,
  htmlFor,
}: {
  readonly label: ReactNode;
  readonly hint?: ReactNode;
  readonly error?: ReactNode;
  readonly children: ReactNode;
  readonly htmlFor?: string;
}) {
  const id = useId();
  const errorId = error ? `${id}-error` : undefined;
  const hintId = hint ? `${id}-hint` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label className="field-label" htmlFor={htmlFor}>
        {label}
      </label>
      <FieldContext.Provider value={{ invalid: Boolean(error), describedBy }}>{children}</FieldContext.Provider>
      {error ? (
        <div className="field-error" id={errorId}>
          {error}
        </div>
      ) : null}
      {hint ? (
        <div className="field-hint" id={hintId}>
          {hint}
        </div>
      ) : null}
    </div>
  );
}

/** A text input in the app's style. */
export function TextInput({ className = '', ...rest }: ComponentProps<'input'>) {
  return <input className={`input ${className}`} {...useFieldAria()} {...rest} />;
}

/** A multi-line input in the app's style. */
export function TextArea({ className = '', ...rest }: ComponentProps<'textarea'>) {
  return <textarea className={`input textarea ${className}`} {...useFieldAria()} {...rest} />;
}

/** A native select in the app's style. */
export function Select({ className = '', children, ...rest }: ComponentProps<'select'>) {
  return (
    <select className={`input select ${className}`} {...useFieldAria()} {...rest}>
      {children}
    </select>
  );
}

/** A labelled text input bound to one field of a form of strings (id `<idPrefix>-<field>`), with its problem. */
export function DraftTextField<K extends string>({
  draft,
  field,
  label,
  idPrefix,
  hint,
  ...input
}: Omit<ComponentProps<'input'>, 'id' | 'value' | 'onChange'> & {
  readonly draft: {
    readonly form: Readonly<Record<K, string>>;
    readonly errors: Partial<Record<K, string>>;
    readonly set: (field: K, value: string) => void;
  };
  readonly field: NoInfer<K>;
  readonly label: ReactNode;
  readonly idPrefix: string;
  readonly hint?: ReactNode;
}) {
  return (
    <Field label={label} htmlFor={`${idPrefix}-${field}`} error={draft.errors[field]} hint={hint}>
      <TextInput
        id={`${idPrefix}-${field}`}
        value={draft.form[field]}
        onChange={(event) => draft.set(field, event.target.value)}
        {...input}
      />
    </Field>
  );
}
