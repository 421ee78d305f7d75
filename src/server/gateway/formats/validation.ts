import { z } from 'zod';

/**
 * Validation helpers shared by the format schemas: messages name the offending field and value
 * (`temperature must be between 0 and 2, got 3.5`), so a caller can fix the request from the message alone.
 */

/**
 * The outcome of validating a client request; a failure's `param` is the field its message names first,
 * in OpenAI's notation (`messages[0].content`), null when that is the request body as a whole.
 */
export type Validated<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly message: string; readonly param: string | null };

/** A number in [min, max] whose error message states the range and the value received. */
export function boundedNumber(min: number, max: number, integer = false) {
  const message = (issue: { input?: unknown }) => `must be between ${min} and ${max}, got ${show(issue.input)}`;
  const base = integer ? z.number().int() : z.number();
  return base.min(min, { error: message }).max(max, { error: message });
}

/** Parses `input` with `schema`, turning the first issues into one readable message. */
export function validate<S extends z.ZodType>(schema: S, input: unknown): Validated<z.output<S>> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues;
  return { ok: false, message: formatIssues(issues), param: issuesParam(issues) };
}

/** Joins the messages of (at most three) zod issues, each naming its field. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return shownIssues(issues).map(formatIssue).join('; ');
}

/** The field of the first issue {@link formatIssues} words, as OpenAI's `param`; null for the whole body. */
export function issuesParam(issues: readonly z.core.$ZodIssue[]): string | null {
  const first = shownIssues(issues)[0];
  return first === undefined ? null : issueParam(first);
}

/** The field one issue's message names; an unknown field, when it is the only one, is itself the fault. */
function issueParam(issue: z.core.$ZodIssue): string | null {
  const variant = matchedVariantIssue(issue);
  if (variant !== undefined) return issueParam(variant);
  const path =
    issue.code === 'unrecognized_keys' && issue.keys.length === 1 ? [...issue.path, issue.keys[0]] : issue.path;
  return path.length === 0 ? null : fieldName(path);
}

/** The issues worded, at most three. */
function shownIssues(issues: readonly z.core.$ZodIssue[]): readonly z.core.$ZodIssue[] {
  return issues.filter((issue) => !issues.some((other) => isTighterBound(other, issue))).slice(0, 3);
}

/**
 * A number past both a field's own bound and the safe-integer bound zod adds to every integer breaks
 * both: the message names the field once, with the bound that matters.
 */
function isTighterBound(other: z.core.$ZodIssue, issue: z.core.$ZodIssue): boolean {
  if (other === issue || other.code !== issue.code || other.path.join('.') !== issue.path.join('.')) return false;
  if (other.code === 'too_big' && issue.code === 'too_big') return Number(other.maximum) < Number(issue.maximum);
  if (other.code === 'too_small' && issue.code === 'too_small') return Number(other.minimum) > Number(issue.minimum);
  return false;
}

/** One zod issue as `<field> <problem>`. */
export function formatIssue(issue: z.core.$ZodIssue): string {
  const variant = matchedVariantIssue(issue);
  if (variant !== undefined) return formatIssue(variant);
  const field = fieldName(issue.path);
  const subject = field === '' ? 'request body' : field;
  const text = withoutOwnName(problem(issue), issue.path);
  // A credential pasted into the wrong field (a key in `api_key_env`) must not come back in the answer.
  return `${subject} ${issue.path.some(isCredentialField) ? text.replace(/, got .*$/s, '') : text}`;
}

/**
 * A union's issue to word in its place, with its full path: when one variant matched the value's
 * type, its own issue is the useful one; a variant whose items also have the right types (a token list
 * that is only too long) before one whose do not.
 */
function matchedVariantIssue(issue: z.core.$ZodIssue): z.core.$ZodIssue | undefined {
  if (issue.code !== 'invalid_union' || issue.input === undefined || 'discriminator' in issue || isOwn(issue.message))
    return undefined;
  const viable = issue.errors.filter(
    (branch) => branch.length > 0 && !branch.some((inner) => refusesItsType(inner, issue.input)),
  );
  const matched = viable.find((branch) => !branch.some((inner) => inner.code === 'invalid_type')) ?? viable[0];
  return matched ? ({ ...matched[0], path: [...issue.path, ...matched[0].path] } as z.core.$ZodIssue) : undefined;
}

/**
 * A union variant's issue that says the value is of another kind altogether: a type it does not take,
 * or a list of literals (an enum of strings) given an object or array.
 */
function refusesItsType(inner: z.core.$ZodIssue, input: unknown): boolean {
  if (inner.path.length > 0) return false;
  return (
    inner.code === 'invalid_type' || (inner.code === 'invalid_value' && input !== null && typeof input === 'object')
  );
}

/** Fields that hold, or are easily mistaken for, a secret: their values are never echoed. */
const CREDENTIAL_FIELD = /(^|[-_])(api[-_]?key|key|secret|password|token|authorization|credentials?)([-_]env)?$/i;

function isCredentialField(part: PropertyKey): boolean {
  return typeof part === 'string' && CREDENTIAL_FIELD.test(part);
}

/** A schema's own message may start with its field's name (`id may hold ...`, shown as is by the UI). */
function withoutOwnName(problem: string, path: readonly PropertyKey[]): string {
  const last = path.at(-1);
  return typeof last === 'string' && problem.startsWith(`${last} `) ? problem.slice(last.length + 1) : problem;
}

function problem(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${article(issue.expected)}, got ${describe(issue.input)}`;
    case 'invalid_union': {
      if (issue.input === undefined) return 'is required';
      if (isOwn(issue.message)) return withValue(issue.message, issue.input);
      const options = (issue as { options?: unknown }).options;
      if ('discriminator' in issue && Array.isArray(options)) {
        const key = String((issue as { discriminator?: unknown }).discriminator);
        const input =
          issue.input !== null && typeof issue.input === 'object'
            ? (issue.input as Record<string, unknown>)[key]
            : issue.input;
        return `must be one of ${options.map(show).join(', ')}, got ${show(input)}`;
      }
      const expected = issue.errors.flatMap((branch) =>
        branch
          .filter((inner) => inner.code === 'invalid_type' && inner.path.length === 0)
          .map((inner) => article((inner as { expected: string }).expected)),
      );
      return `must be ${[...new Set(expected)].join(' or ') || 'valid'}, got ${describe(issue.input)}`;
    }
    case 'invalid_value':
      return `must be one of ${issue.values.map(show).join(', ')}, got ${show(issue.input)}`;
    case 'too_small':
      if (issue.origin === 'array')
        return `must contain ${issue.exact ? 'exactly' : 'at least'} ${items(Number(issue.minimum))}`;
      if (issue.origin === 'string')
        return Number(issue.minimum) <= 1 ? 'must not be empty' : `must be at least ${issue.minimum} characters`;
      return customOr(
        issue.message,
        `must be ${issue.inclusive === false ? 'greater than' : 'at least'} ${issue.minimum}, got ${show(issue.input)}`,
      );
    case 'too_big':
      // The size received, never the value: it is what was too big.
      if (issue.origin === 'array')
        return `must contain ${issue.exact ? 'exactly' : 'at most'} ${items(Number(issue.maximum))}${sizeOf(issue.input, 'items')}`;
      if (issue.origin === 'string')
        return `must be at most ${issue.maximum} characters${sizeOf(issue.input, 'characters')}`;
      return customOr(
        issue.message,
        `must be ${issue.inclusive === false ? 'less than' : 'at most'} ${issue.maximum}, got ${show(issue.input)}`,
      );
    case 'invalid_format':
      // A schema that names the expected form (`must be a date (YYYY-MM-DD)`) is clearer than any pattern.
      return withValue(customOr(issue.message, expectedFormat(issue)), issue.input);
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}, got ${show(issue.input)}`;
    case 'unrecognized_keys':
      return `has unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}`;
    case 'invalid_key': {
      // The name itself is the subject (the last part of the path): say what is wrong with it.
      const inner = issue.issues[0];
      return inner === undefined ? 'is not a valid name' : `is not a valid name: ${problem(inner)}`;
    }
    case 'invalid_element':
      return 'is not valid';
    case 'custom':
      return issue.message;
  }
}

/** Our own messages start lower-case without the field; zod's defaults start with a capital. */
function isOwn(message: string): boolean {
  return /^[a-z]/.test(message);
}

function customOr(message: string, fallback: string): string {
  return isOwn(message) ? message : fallback;
}

/** Adds the value received unless the message already names it. */
function withValue(message: string, input: unknown): string {
  return /\bgot\b/.test(message) ? message : `${message}, got ${show(input)}`;
}

function expectedFormat(issue: z.core.$ZodIssueInvalidStringFormat): string {
  switch (issue.format) {
    case 'regex':
      return `must match ${issue.pattern ?? 'the expected pattern'}`;
    case 'datetime':
      return 'must be an ISO-8601 date-time like 2024-01-31T12:00:00Z';
    case 'date':
      return 'must be a date (YYYY-MM-DD)';
    default:
      return `must be a valid ${issue.format}`;
  }
}

function sizeOf(input: unknown, unit: string): string {
  return Array.isArray(input) || typeof input === 'string' ? `, got ${input.length} ${unit}` : '';
}

function items(count: number): string {
  return `${count} item${count === 1 ? '' : 's'}`;
}

/** `messages[0].content` style path; an empty or very long name (a record's key) is shown quoted or cut. */
export function fieldName(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (key === '') out += '[""]';
    else {
      const name = String(key);
      const shown = name.length > 60 ? `${name.slice(0, 60)}...` : name;
      out += out === '' ? shown : `.${shown}`;
    }
  }
  return out;
}

function article(expected: string): string {
  if (expected === 'int') return 'an integer';
  if (expected === 'array' || expected === 'object') return `an ${expected}`;
  return `a ${expected}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return show(value);
}

function show(value: unknown): string {
  if (typeof value === 'string') return `'${value.length > 40 ? `${value.slice(0, 40)}...` : value}'`;
  if (value === undefined) return 'nothing';
  try {
    const text = JSON.stringify(value);
    return text.length > 40 ? `${text.slice(0, 40)}...` : text;
  } catch {
    return String(value);
  }
}
