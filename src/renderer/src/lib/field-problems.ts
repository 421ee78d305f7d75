/** One thing that keeps a draft from being saved, and the id of the control where it is fixed. */
export interface FieldProblem {
  readonly fieldId: string;
  readonly message: string;
}

/** The messages of the problems found in one control, one per line; undefined when it has none. */
export function problemsAt(problems: readonly FieldProblem[], fieldId: string): string | undefined {
  const messages = problems.filter((problem) => problem.fieldId === fieldId).map((problem) => problem.message);
  return messages.length ? messages.join('\n') : undefined;
}
