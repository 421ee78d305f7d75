import type { z } from 'zod';
import { closestName } from '../../shared/closest-name.js';

/** The parts of zod's internal definition needed to find the keys an object accepts at a path. */
interface SchemaDef {
  readonly type: string;
  readonly shape?: Readonly<Record<string, z.ZodType>>;
  readonly innerType?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly element?: z.ZodType;
  readonly in?: z.ZodType;
}

const defOf = (schema: z.ZodType): SchemaDef => (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;

/** The object schema found at `path` below `schema`, through defaults, records and lists. */
function objectAt(schema: z.ZodType, path: readonly PropertyKey[]): SchemaDef | undefined {
  let def = defOf(schema);
  for (let i = 0; ;) {
    const inner = def.innerType ?? def.in;
    if (inner !== undefined) {
      def = defOf(inner);
      continue;
    }
    if (i === path.length) return def.type === 'object' ? def : undefined;
    const next =
      def.type === 'object'
        ? def.shape?.[String(path[i])]
        : def.type === 'record'
          ? def.valueType
          : def.type === 'array'
            ? def.element
            : undefined;
    if (next === undefined) return undefined;
    def = defOf(next);
    i += 1;
  }
}

/** Names a LiteLLM (or OpenAI SDK) configuration uses for what Gatehouse spells otherwise. */
const OTHER_NAMES: Readonly<Record<string, string>> = {
  api_base: 'base_url',
  model_name: 'model',
  num_retries: 'max_retries',
  timeout: 'timeout_ms',
  ttl: 'ttl_seconds',
};

/**
 * The accepted keys an unknown one most likely meant: another tool's name for it (`api_base`), the
 * keys it is a word of (`port`: gateway_port or store_port, rather than `host`, one letter away), else
 * the closest spelling.
 */
function meantKeys(unknown: string, known: readonly string[]): string[] {
  const other = OTHER_NAMES[unknown];
  if (other !== undefined && known.includes(other)) return [other];
  const containing = known.filter((key) => key !== unknown && key.split('_').includes(unknown));
  if (containing.length > 0 && containing.length <= 3) return containing;
  const closest = closestName(unknown, known);
  return closest === undefined ? [] : [closest];
}

/** `a.b[2].c`: the path as the file spells it. */
export function keyPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)),
    '',
  );
}

/** YAML 1.1 words for true and false that YAML 1.2 (this reader) reads as text. */
const YAML11_BOOLEANS = /^(yes|no|on|off|y|n|true|false)$/i;

/** Whether a value at `path` may be a secret (a key, token or password written there): such a value is never shown. */
const isSecretPath = (path: readonly PropertyKey[]): boolean =>
  path.some((part) => typeof part === 'string' && SECRET_KEY.test(part));

/** A value as the file shows it, shortened: `'masked'`, `70000`, `[1,2]`. */
const shownValue = (input: unknown): string =>
  typeof input === 'string' ? `'${input.slice(0, 60)}'` : String(JSON.stringify(input)).slice(0, 60);

/** The value an issue is about, as the file shows it; `the value` where it may be a secret or is not known. */
const givenValue = (issue: z.core.$ZodIssue): string =>
  isSecretPath(issue.path) || issue.input === undefined ? 'the value' : shownValue(issue.input);

/**
 * The allowed value a wrong one most likely meant: close in spelling (`masked`: mask), or the one
 * allowed value that is a word of it (`phone_number`: phone) or that it is a word of (`ip`: ip_address).
 */
export function closestValue(given: string, allowed: readonly string[]): string | undefined {
  const close = closestName(given, allowed);
  if (close !== undefined) return close;
  const words = (text: string): string[] => text.toLowerCase().split(/[_\-\s./]+/);
  const lower = given.toLowerCase();
  const sharing = allowed.filter((value) => words(given).includes(value.toLowerCase()) || words(value).includes(lower));
  return sharing.length === 1 ? sharing[0] : undefined;
}

/** The schema library's own wording, kept out of messages; a schema's own message for a check is kept. */
const LIBRARY_WORDING = /^(Invalid input|Invalid option|Too big|Too small|Invalid string|Invalid number)\b/;

/** `'masked' is not one of off, mask, redact, block (did you mean 'mask'?)`. */
function valueProblem(issue: z.core.$ZodIssueInvalidValue): string {
  const allowed = issue.values.map((value) => String(value));
  // A secret typed into the wrong key is not echoed, even where only a few words are allowed.
  const given = givenValue(issue);
  if (allowed.length === 1) return `${given} is not ${shownValue(issue.values[0])}, the only value allowed here`;
  const meant = typeof issue.input === 'string' ? closestValue(issue.input, allowed) : undefined;
  return `${given} is not one of ${allowed.join(', ')}${meant !== undefined ? ` (did you mean '${meant}'?)` : ''}`;
}

/** What a bound is a bound of, for text and lists: `3 characters`, `1 item`. */
function counted(count: number | bigint, origin: string): string | undefined {
  const unit = origin === 'string' ? 'character' : origin === 'array' || origin === 'set' ? 'item' : undefined;
  if (unit === undefined) return undefined;
  return `${count} ${unit}${Number(count) === 1 ? '' : 's'}`;
}

/**
 * A number out of range, or text or a list too long or too short, in plain words with the value
 * given: `70000 is more than 65535`, `must be more than 0, got 0`, `must not be empty`.
 */
function sizeProblem(issue: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall): string {
  const big = issue.code === 'too_big';
  const bound = big ? issue.maximum : issue.minimum;
  const input = issue.input;
  if (typeof input === 'number' || typeof input === 'bigint') {
    if (issue.inclusive === false) return `must be ${big ? 'less' : 'more'} than ${bound}, got ${input}`;
    return `${input} is ${big ? 'more' : 'less'} than ${bound}`;
  }
  const length = typeof input === 'string' || Array.isArray(input) ? input.length : undefined;
  const limit = counted(bound, issue.origin);
  // A date or a file, which no configuration key holds: the library's words are all there is.
  if (length === undefined || limit === undefined) return issue.message;
  if (!big && Number(bound) === 1 && length === 0)
    return issue.origin === 'string' ? 'must not be empty' : 'must list at least one item';
  const subject = typeof input === 'string' && !isSecretPath(issue.path) ? `${shownValue(input)} has` : 'has';
  const have = counted(length, issue.origin)!;
  if (issue.exact) return `${subject} ${have}; it must have exactly ${limit}`;
  return `${subject} ${have}; ${big ? 'the most allowed is' : 'the fewest allowed is'} ${bound}`;
}

/** Any other check a value failed, as the schema words it, or in plain words for the library's own. */
function otherProblem(issue: z.core.$ZodIssue): string {
  if (!LIBRARY_WORDING.test(issue.message)) return issue.message;
  const given = givenValue(issue);
  if (issue.code === 'not_multiple_of') return `${given} is not a multiple of ${issue.divisor}`;
  if (issue.code === 'invalid_format')
    return issue.format === 'regex'
      ? `${given} does not match the pattern ${issue.pattern}`
      : `${given} is not a valid ${issue.format}`;
  return issue.message;
}

/** One value's problem, after its key path: the value given, and what is allowed instead. */
function problemOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return typeProblem(issue);
    case 'invalid_value':
      return LIBRARY_WORDING.test(issue.message) ? valueProblem(issue) : issue.message;
    case 'too_big':
    case 'too_small':
      return LIBRARY_WORDING.test(issue.message) ? sizeProblem(issue) : issue.message;
    default:
      return otherProblem(issue);
  }
}

/**
 * A value of the wrong type, in the file's words rather than the schema library's ("expected int,
 * received number"): a key left out is required, a number is not whole, a `yes` is text.
 */
function typeProblem(issue: z.core.$ZodIssueInvalidType): string {
  const input = issue.input;
  // A schema's own words for a missing key (what to write there) are kept; the library's are not.
  if (input === undefined) return issue.message.startsWith('Invalid input') ? 'is required' : issue.message;
  // A key, token or secret written with the wrong type is still a secret: its value is never shown.
  const shown = isSecretPath(issue.path) ? `a ${typeof input}` : shownValue(input);
  if (issue.expected === 'int' && typeof input === 'number') return `must be a whole number, got ${shown}`;
  if (issue.expected === 'boolean' && typeof input === 'string' && YAML11_BOOLEANS.test(input))
    return `must be true or false, got ${shown} (text here: write true or false without quotes)`;
  const got =
    input === null ? 'null' : Array.isArray(input) ? 'a list' : typeof input === 'object' ? 'a mapping' : shown;
  return `must be ${EXPECTED[issue.expected] ?? `a ${issue.expected}`}, got ${got}`;
}

/** What each expected type is called in a configuration file. */
const EXPECTED: Readonly<Record<string, string>> = {
  int: 'a whole number',
  number: 'a number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping',
  record: 'a mapping',
};

/** Keys whose values are secrets. */
const SECRET_KEY = /key|token|secret|password|authorization|headers/i;

/**
 * One line per problem, `<key path>: <problem>`. A key the schema does not know gets a line of its
 * own naming it, with the accepted key it most likely meant: a misspelt key would otherwise do nothing.
 */
export function describeConfigIssues(schema: z.ZodType, issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.flatMap((issue) => {
    if (issue.code === 'invalid_key') {
      // The name itself is wrong (an empty alias, say): said of the map it is in, as the file shows it.
      const name = String(issue.path.at(-1));
      const why = issue.issues.map(problemOf).join('; ');
      return [`${keyPath(issue.path.slice(0, -1))}: '${name}' is not a valid name (${why})`];
    }
    if (issue.code !== 'unrecognized_keys') return [`${keyPath(issue.path) || '(top level)'}: ${problemOf(issue)}`];
    const known = Object.keys(objectAt(schema, issue.path)?.shape ?? {});
    return issue.keys.map((key) => {
      const meant = meantKeys(key, known);
      const hint = meant.length > 0 ? `did you mean ${meant.join(' or ')}?` : `accepted here: ${known.join(', ')}`;
      return `${keyPath([...issue.path, key])}: unknown key (${hint})`;
    });
  });
}
