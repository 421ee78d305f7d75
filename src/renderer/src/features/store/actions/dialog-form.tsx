import type { ReactNode } from 'react';

/**
 * The fields of a store dialog as a form, so Enter in a field submits it as the confirm button
 * does, and only when that button is enabled. The confirm button sits in the dialog's footer,
 * outside the form, so a hidden submit button stands in for it: without one, a browser submits on
 * Enter only while the form has a single text field.
 */
export function DialogForm({
  onSubmit,
  canSubmit,
  children,
}: {
  readonly onSubmit: () => void;
  readonly canSubmit: boolean;
  readonly children: ReactNode;
}) {
  return (
    <form
      className="dialog-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (canSubmit) onSubmit();
      }}
    >
      {children}
      <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
    </form>
  );
}
