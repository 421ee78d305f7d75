import type { z } from 'zod';

/** The form field (and its label as the form shows it) that holds one field of a request body. */
export interface FormFieldRef<Form extends string> {
  readonly field: Form;
  readonly label: string;
}

type RawIssue = z.core.$ZodRawIssue;

const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

const sizeUnit = (origin: string): string => (origin === 'string' ? ' characters' : origin === 'array' ? ' items' : '');

/**
 * A sentence naming the field for one of zod's own complaints ("Name is required", "Weight must be a
 * number"), or undefined to keep zod's text. Only reached for checks without a message of their own.
 */
export function issueText(issue: RawIssue, label: string): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (!('input' in issue) || isBlank(issue.input)) return `${label} is required`;
      if (issue.expected === 'int') return `${label} must be a whole number`;
      if (issue.expected === 'number') return `${label} must be a number`;
      return `${label} must be ${issue.expected === 'string' ? 'text' : `a ${issue.expected}`}`;
    case 'too_small':
      if ((issue.origin === 'string' || issue.origin === 'array') && Number(issue.minimum) <= 1 && isBlank(issue.input))
        return `${label} is required`;
      if (issue.origin === 'string' || issue.origin === 'array')
        return `${label} needs at least ${issue.minimum}${sizeUnit(issue.origin)}`;
      return issue.inclusive === false
        ? `${label} must be above ${issue.minimum}`
        : `${label} must be ${issue.minimum} or more`;
    case 'too_big':
      if (issue.origin === 'string' || issue.origin === 'array')
        return `${label} may have at most ${issue.maximum}${sizeUnit(issue.origin)}`;
      return issue.inclusive === false
        ? `${label} must be below ${issue.maximum}`
        : `${label} must be ${issue.maximum} or less`;
    case 'invalid_format':
      if (issue.format === 'email') return `${label} must be an e-mail address, like alice@example.com`;
      if (issue.format === 'url') return `${label} must be a URL`;
      if (issue.format === 'regex') return `${label} holds characters it may not`;
      return `${label} is not a valid ${issue.format}`;
    case 'invalid_value':
      return `${label} must be one of ${issue.values.map(String).join(', ')}`;
    default:
      return undefined;
  }
}

/**
 * A schema's own message put in the form's words: a bare predicate ("must be letters, digits…") gets
 * the field's label as its subject, and one naming the body field ("api_key_env must be…") names
 * the form's field instead.
 */
function withSubject(message: string, bodyField: string, label: string): string {
  if (/^(must|may|is|are|has|cannot)\b/.test(message)) return `${label} ${message}`;
  if (bodyField && message.startsWith(`${bodyField} `)) return `${label}${message.slice(bodyField.length)}`;
  return message;
}

/**
 * Checks a request body with a shared schema, and puts each problem on the form field that holds the
 * body field it concerns, worded for people: zod's generic complaints are rewritten to name the field
 * ("Id is required"), the schema's own messages are kept. Problems about no known field go to
 * `fallback`. `found` holds what the form's own checks already refused (a limit that is not a number,
 * left out of `body`): those are reported with the schema's, so every problem shows at once, and a
 * field's own message wins.
 */
export function parseForm<T, Form extends string>(
  schema: z.ZodType<T>,
  body: unknown,
  fields: Readonly<Partial<Record<string, FormFieldRef<Form>>>>,
  fallback: FormFieldRef<NoInfer<Form>>,
  found: Partial<Record<NoInfer<Form>, string>> = {},
): { readonly data?: T; readonly errors: Partial<Record<Form, string>> } {
  const refOf = (path: readonly PropertyKey[]): FormFieldRef<Form> => fields[String(path[0] ?? '')] ?? fallback;
  const parsed = schema.safeParse(body, { error: (issue) => issueText(issue, refOf(issue.path ?? []).label) });
  const clean = Object.keys(found).length === 0;
  if (parsed.success) return clean ? { data: parsed.data, errors: {} } : { errors: found };
  const errors: Partial<Record<Form, string>> = {};
  for (const issue of parsed.error.issues) {
    const ref = refOf(issue.path);
    errors[ref.field] ??= withSubject(issue.message, String(issue.path[0] ?? ''), ref.label);
  }
  return { errors: { ...errors, ...found } };
}
