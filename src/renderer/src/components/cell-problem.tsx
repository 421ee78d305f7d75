/**
 * A control's problem in a table cell, linked as a field's would be: the props for an input (its id,
 * and while there is a problem `aria-invalid` and `aria-describedby`), the message's id alone for a
 * control that cannot be invalid (a button), and the message to render in the cell (undefined without
 * one). The id lets a save bar's Show problem focus the control.
 */
export function cellProblem(fieldId: string, message: string | undefined) {
  const errorId = `${fieldId}-error`;
  return {
    control: message ? { id: fieldId, 'aria-invalid': true, 'aria-describedby': errorId } : { id: fieldId },
    describedBy: message ? errorId : undefined,
    message: message && (
      <div className="field-error" id={errorId}>
        {message}
      </div>
    ),
  };
}
