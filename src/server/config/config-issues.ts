import type { z } from 'zod';

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

/** How many single-character edits turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/** The accepted key a typo most likely meant: close in spelling, or the same words in another case. */
export function closestKey(unknown: string, known: readonly string[]): string | undefined {
  const plain = (key: string): string => key.replace(/[_-]/g, '').toLowerCase();
  let best: { key: string; distance: number } | undefined;
  for (const key of known) {
    const distance = plain(key) === plain(unknown) ? 0 : editDistance(unknown, key);
    if (distance <= Math.max(2, Math.floor(key.length / 4)) && (best === undefined || distance < best.distance))
      best = { key, distance };
  }
  return best?.key;
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
  const closest = closestKey(unknown, known);
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

/**
 * A value of the wrong type, in the file's words rather than the schema library's ("expected int,
 * received number"): a key left out is required, a number is not whole, a `yes` is text.
 */
function typeProblem(issue: z.core.$ZodIssueInvalidType): string {
  const input = issue.input;
  // A schema's own words for a missing key (what to write there) are kept; the library's are not.
  if (input === undefined) return issue.message.startsWith('Invalid input') ? 'is required' : issue.message;
  // A key, token or secret written with the wrong type is still a secret: its value is never shown.
  const secret = issue.path.some((part) => typeof part === 'string' && SECRET_KEY.test(part));
  const shown = secret
    ? `a ${typeof input}`
    : typeof input === 'string'
      ? `'${input.slice(0, 60)}'`
      : String(JSON.stringify(input)).slice(0, 60);
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
      const why = issue.issues.map((inner) => inner.message).join('; ');
      return [`${keyPath(issue.path.slice(0, -1))}: '${name}' is not a valid name (${why})`];
    }
    if (issue.code === 'invalid_type') return [`${keyPath(issue.path) || '(top level)'}: ${typeProblem(issue)}`];
    if (issue.code !== 'unrecognized_keys') return [`${keyPath(issue.path) || '(top level)'}: ${issue.message}`];
    const known = Object.keys(objectAt(schema, issue.path)?.shape ?? {});
    return issue.keys.map((key) => {
      const meant = meantKeys(key, known);
      const hint = meant.length > 0 ? `did you mean ${meant.join(' or ')}?` : `accepted here: ${known.join(', ')}`;
      return `${keyPath([...issue.path, key])}: unknown key (${hint})`;
    });
  });
}
