import type { ComponentProps, ReactNode } from 'react';

/** A labelled form row with an optional hint or error under it. */
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
  return (
    <div className="field">
      <label className="field-label" htmlFor={htmlFor}>
        {label}
      </label>
      {children}
      {error ? <div className="field-error">{error}</div> : hint ? <div className="field-hint">{hint}</div> : null}
    </div>
  );
}

/** A text input in the app's style. */
export function TextInput({ className = '', ...rest }: ComponentProps<'input'>) {
  return <input className={`input ${className}`} {...rest} />;
}

/** A multi-line input in the app's style. */
export function TextArea({ className = '', ...rest }: ComponentProps<'textarea'>) {
  return <textarea className={`input textarea ${className}`} {...rest} />;
}

/** A native select in the app's style. */
export function Select({ className = '', children, ...rest }: ComponentProps<'select'>) {
  return (
    <select className={`input select ${className}`} {...rest}>
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
