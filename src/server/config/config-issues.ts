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

/** `a.b[2].c`: the path as the file spells it. */
export function keyPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)),
    '',
  );
}

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
    if (issue.code !== 'unrecognized_keys') return [`${keyPath(issue.path) || '(top level)'}: ${issue.message}`];
    const known = Object.keys(objectAt(schema, issue.path)?.shape ?? {});
    return issue.keys.map((key) => {
      const meant = closestKey(key, known);
      const hint = meant !== undefined ? `did you mean ${meant}?` : `accepted here: ${known.join(', ')}`;
      return `${keyPath([...issue.path, key])}: unknown key (${hint})`;
    });
  });
}
