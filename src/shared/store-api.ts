// Request and response schemas of the versioned document store API (/v1/*).
// Imported by the server routes and by the renderer: no Node or database imports here.
import { z } from 'zod';
import { decimalInteger } from './query-params.js';

/**
 * Path-like namespace: segments of letters, digits, `.`, `_`, `-` joined by `/` (`team/app/config`).
 * A segment is never `.` or `..`: browsers and HTTP clients collapse those in URLs, so the UI's link to
 * `team/../app` would open another namespace, and `team/*` grants would seem to cover what is not below.
 */
const SEGMENT = String.raw`(?!\.\.?(?:/|$))[A-Za-z0-9._-]+`;
export const NAMESPACE_PATTERN = new RegExp(`^${SEGMENT}(?:/${SEGMENT})*$`);
/** Branch names (and names of branches to create). */
export const BRANCH_PATTERN = /^[A-Za-z0-9._/-]+$/;
/** Longest namespace, branch or checkpoint name. */
export const MAX_NAME_LENGTH = 256;
/** Longest document key, in characters. */
export const MAX_KEY_LENGTH = 1024;
/** Most log entries (or list items) one page returns. */
export const MAX_PAGE_LIMIT = 1000;
/** Log entries per page when `limit` is missing or 0. */
export const DEFAULT_LOG_LIMIT = 20;
/** Branches, checkpoints or namespaces per page when `limit` is missing or 0. */
export const DEFAULT_LIST_LIMIT = 100;

// Lone UTF-16 surrogates cannot be stored as UTF-8; refusing them beats silently changing content.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const wellFormed = (value: string): boolean => !LONE_SURROGATE.test(value);

/** A string field: a missing one is "required", any other value "must be a string" (the field is named by the caller). */
const text = () => z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') });

const NAMESPACE_RULE =
  'must be path-like: segments of letters, digits, ".", "_" or "-" separated by single "/", none of them "." or ".."';

/** A namespace; empty means `default`. */
export const namespaceSchema = text()
  .max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`)
  .refine((value) => value === '' || NAMESPACE_PATTERN.test(value), {
    message: NAMESPACE_RULE,
  });

/**
 * Unicode format characters (category Cf): invisible, or reordering the text around them (zero-width
 * space U+200B, right-to-left override U+202E, byte order mark U+FEFF). In a name they make a different
 * name look the same as another one in a list, or reorder what it seems to say.
 */
const FORMAT_CHARACTER = /\p{Cf}/u;

/** `U+200B`: a character named by its code point, since a format character shows as nothing. */
const codePoint = (char: string): string =>
  `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/** A branch name; empty means `main`. */
export const branchSchema = text()
  .max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`)
  .refine((value) => value === '' || BRANCH_PATTERN.test(value), {
    error: (issue) => {
      const rule = 'must contain only letters, digits, ".", "_", "/" and "-"';
      if (typeof issue.input !== 'string') return rule;
      const format = FORMAT_CHARACTER.exec(issue.input);
      if (format) return `${rule}; it contains ${codePoint(format[0])}, an invisible format character`;
      // The first character the pattern refuses, named so a space or an emoji is not hunted for by eye.
      const bad = [...issue.input].find((char) => !/[A-Za-z0-9._/-]/.test(char));
      if (bad === undefined) return rule;
      if (bad === ' ') return `${rule}; it contains a space`;
      // A control or blank character would print as nothing (or break the line): named by its code point only.
      return /[\s\p{Cc}]/u.test(bad) ? `${rule}; it contains ${codePoint(bad)}` : `${rule}; it contains "${bad}"`;
    },
  });

/** A checkpoint name: well-formed Unicode without control characters. */
export const checkpointNameSchema = text()
  .max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`)
  // eslint-disable-next-line no-control-regex
  .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), { message: 'must not contain control characters' })
  .refine(wellFormed, { message: 'must be well-formed Unicode (no lone surrogates)' });

/**
 * The name of a checkpoint being created: also without format characters, so that no checkpoint can
 * pass for another one (the store keeps names in NFC for the same reason). Names that refer to a
 * checkpoint take {@link checkpointNameSchema}, so ones stored before this rule still read and delete.
 */
export const newCheckpointNameSchema = checkpointNameSchema.superRefine((value, ctx) => {
  const format = FORMAT_CHARACTER.exec(value);
  if (format)
    ctx.addIssue({
      code: 'custom',
      message: `must not contain invisible format characters (such as zero-width spaces or direction overrides), found ${codePoint(format[0])}`,
      input: value,
    });
});

/** What a JSON value is, for messages: `an array`, `null`, `a string`. */
const jsonKind = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'object'
        ? 'an object'
        : `a ${typeof value}`;

/**
 * An object that refuses fields it does not know, naming them and the ones it takes, so a typo
 * (`revison_id`) is fixed from the message alone rather than passing silently.
 */
const strictFields = <S extends Record<string, z.ZodType>>(shape: S, taker = 'this endpoint', kind = 'field') => {
  const known = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === 'invalid_type') return `must be an object, got ${jsonKind(issue.input)}`;
      if (issue.code !== 'unrecognized_keys') return undefined;
      const names = issue.keys.map((key) => `"${key}"`).join(', ');
      return `unknown ${kind}${issue.keys.length === 1 ? '' : 's'} ${names}; ${taker} takes ${known}`;
    },
  });
};

/** Namespace plus branch; both optional (defaults `default` and `main`). */
export const scopeSchema = strictFields(
  { namespace: namespaceSchema.default(''), branch: branchSchema.default('') },
  'it',
);

/** The largest integer a double holds exactly (2^53 - 1): bigger ones would be read as a neighbour. */
export const MAX_INTEGER = Number.MAX_SAFE_INTEGER;

/**
 * A whole number from `min` to `max`. An integer past `max` is told so (zod's `int()` would call
 * 9007199254740992 "not an integer"); `max` Infinity accepts any size, for values the engine clamps.
 */
const wholeNumber = (name: string, max = MAX_INTEGER, min = 0) => {
  const base = z
    .number({ error: `${name} must be an integer` })
    .refine(Number.isInteger, `${name} must be an integer`)
    .min(min, min === 0 ? `${name} must not be negative` : `${name} must be at least ${min}`);
  return max === Infinity ? base : base.max(max, `${name} must be at most ${max}`);
};

const revisionSelector = (name: string) => wholeNumber(name);

/** One document of an apply or diff: content to write, or `delete: true`. */
export const documentInputSchema = strictFields(
  {
    key: text()
      .min(1, 'must not be empty')
      .max(MAX_KEY_LENGTH, `must be at most ${MAX_KEY_LENGTH} characters`)
      .refine(wellFormed, { message: 'must be well-formed Unicode (no lone surrogates)' }),
    content: text().refine(wellFormed, { message: 'must be well-formed Unicode (no lone surrogates)' }).optional(),
    delete: z.boolean({ error: (issue) => `must be true or false, got ${jsonKind(issue.input)}` }).optional(),
  },
  'it',
).refine((doc) => (doc.delete === true) !== (doc.content !== undefined), {
  message: 'give either content or "delete": true',
});
/** A document as sent by clients. */
export type DocumentInput = z.infer<typeof documentInputSchema>;

/** `merge` (default) changes only the listed keys; `replace` makes them the whole state. */
export const applyModeSchema = z.enum(['merge', 'replace'], {
  error: (issue) => `must be "merge" or "replace", got ${JSON.stringify(issue.input) ?? 'nothing'}`,
});
/** How an apply treats keys it does not list. */
export type ApplyMode = z.infer<typeof applyModeSchema>;

const expectedRevision = revisionSelector('expected_revision').nullish();
/** A message or description: free text, stored as UTF-8 like a document's content. */
const freeText = text()
  .max(65_536, 'must be at most 65536 characters')
  .refine(wellFormed, { message: 'must be well-formed Unicode (no lone surrogates)' })
  .default('');
const message = freeText;

/** The documents of an apply or diff, named alike in both when they are no list. */
const documentListSchema = z.array(documentInputSchema, { error: 'documents must be an array of documents' });

/**
 * `contents: false` on a write (extension): its changes answer with key and type only and
 * `contents_omitted: true`, as `contents=false` on a log, so a one-field change of a large document is not
 * sent back twice. It changes the answer, not the write: `true` counts as left out, as `false` does in the
 * `Idempotency-Key` fingerprint, and a retry gets the answer kept the first time.
 */
const writeContents = z
  .boolean({ error: (issue) => `contents must be true or false, got ${jsonKind(issue.input)}` })
  .optional()
  .transform((value) => (value === false ? false : undefined));

/** POST /v1/apply. */
export const applyRequestSchema = strictFields({
  scope: scopeSchema.default({ namespace: '', branch: '' }),
  documents: documentListSchema,
  message,
  mode: applyModeSchema.default('merge'),
  expected_revision: expectedRevision,
  contents: writeContents,
});

/** One changed document. `before` is absent for a create, `after` for a delete. */
export const changeSchema = z.object({
  key: z.string(),
  type: z.enum(['create', 'update', 'delete']),
  before: z.string().optional(),
  after: z.string().optional(),
  // UTF-8 bytes of each side, in a revision read with `contents=false` (extension).
  before_bytes: z.number().int().optional(),
  after_bytes: z.number().int().optional(),
});
/** One changed document. */
export type Change = z.infer<typeof changeSchema>;

/** Answer of apply, rollback and restore. */
export const applyResponseSchema = z.object({
  revision: z.number().int(),
  noop: z.boolean(),
  changes: z.array(changeSchema),
  contents_omitted: z.boolean().optional(),
});
/** Answer of apply, rollback and restore. */
export type ApplyResponse = z.infer<typeof applyResponseSchema>;

/**
 * Query strings carry integers as plain decimal digits; `1e2`, `0x1` or ` 1` are not coerced into one.
 * An empty value (`?revision=`) is unused, like `0` and like an empty checkpoint or cursor.
 */
const storeInteger = (value: unknown): unknown => (value === '' ? 0 : decimalInteger(value));

const queryInt = (name: string, max = MAX_INTEGER) => z.preprocess(storeInteger, wholeNumber(name, max));

/** A parameter given twice arrives as a list: say so rather than that it is not an integer or a string. */
const givenOnce = <T extends z.ZodType>(name: string, schema: T) =>
  z.preprocess((value, ctx) => {
    if (!Array.isArray(value)) return value;
    ctx.addIssue({ code: 'custom', message: `${name} is given ${value.length} times; give it once`, input: value });
    return z.NEVER;
  }, schema);

/**
 * A query string schema that refuses parameters it does not know, as bodies refuse unknown fields:
 * `?namspace=team/app` would otherwise read the `default` namespace and `?revison=1` the head.
 */
const querySchema = <S extends Record<string, z.ZodType>>(shape: S, repeatable: readonly string[] = []) => {
  const once = (name: string) => (repeatable.includes(name) ? shape[name] : givenOnce(name, shape[name]));
  const fields = Object.fromEntries(Object.keys(shape).map((name) => [name, once(name)])) as {
    [K in keyof S]: ReturnType<typeof givenOnce<S[K]>>;
  };
  return strictFields(fields, 'this endpoint', 'parameter');
};

/**
 * The query string of an endpoint that takes a JSON body: nothing. A scope or selector sent there (as
 * GET /v1/state takes them) would otherwise be ignored, writing to `default`/`main` or running gc for real.
 */
export const bodyOnlyQuerySchema = z.strictObject(
  {},
  {
    error: (issue) => {
      if (issue.code !== 'unrecognized_keys') return undefined;
      const names = issue.keys.map((key) => `"${key}"`).join(', ');
      const noun = issue.keys.length === 1 ? 'parameter' : 'parameters';
      return `unknown ${noun} ${names}; this endpoint takes none: send its fields in the JSON body`;
    },
  },
);

/** Most documents one request names by key: a state read's `key` parameters, a restore's `keys`. */
export const MAX_KEYS_PER_REQUEST = 1000;

/** A document key a request names: the rules of a key written by apply. */
const namedKeySchema = () => documentInputSchema.shape.key;

/** Keys a request names, at most {@link MAX_KEYS_PER_REQUEST} of them. */
const keyListSchema = (name: string) =>
  z
    .array(namedKeySchema(), { error: `${name} must be an array of document keys` })
    .max(MAX_KEYS_PER_REQUEST, `${name} names at most ${MAX_KEYS_PER_REQUEST} documents`);

/** The `keys` of a restore or diff: optional, and when sent, 1 to {@link MAX_KEYS_PER_REQUEST} keys. */
const keysFieldSchema = () =>
  keyListSchema('keys').min(1, 'keys must name at least one document; leave it out for all of them').optional();

/**
 * The repeatable `key` query parameter: one value or a list of them; absent, or a lone empty value
 * (`?key=`, as log takes it), reads every document.
 */
const queryKeyList = () =>
  z.preprocess(
    (value) => (value === undefined || value === '' ? [] : typeof value === 'string' ? [value] : value),
    keyListSchema('key'),
  );

/** `contents=true|false` of a read (extension): `false` leaves the contents out. */
const contentsParam = () => z.enum(['true', 'false'], "must be 'true' or 'false'").default('true');

/** A document key where a page starts (exclusive); empty for the first page. */
const keyCursor = () =>
  text()
    .max(MAX_KEY_LENGTH, `must be at most ${MAX_KEY_LENGTH} characters`)
    .refine(wellFormed, { message: 'must be well-formed Unicode (no lone surrogates)' })
    .default('');

/** A time as ISO 8601 (`2026-11-30T08:00:00Z`) or Unix milliseconds, read as the latter; empty: unused. */
const asOfParam = () =>
  text()
    .refine((value) => value === '' || timeOf(value) !== undefined, {
      error: (issue) =>
        'as_of must be an ISO 8601 timestamp such as 2026-11-30T08:00:00Z or milliseconds since the epoch ' +
        `such as 1795939200000, got ${JSON.stringify(typeof issue.input === 'string' ? issue.input : '')}`,
    })
    .default('')
    .transform((value) => (value === '' ? undefined : timeOf(value)));

/** Milliseconds since the epoch of a time sent as digits or ISO 8601; undefined for neither. */
const timeOf = (value: string): number | undefined =>
  /^\d{1,16}$/.test(value) ? (Number(value) <= MAX_INTEGER ? Number(value) : undefined) : parseIsoTimestamp(value);

/** GET /v1/state query. */
export const stateQuerySchema = querySchema(
  {
    namespace: namespaceSchema.default(''),
    branch: branchSchema.default(''),
    revision: queryInt('revision').default(0),
    checkpoint: checkpointNameSchema.default(''),
    // Either one asks for a page of the state rather than all of it.
    limit: queryInt('limit', Infinity).default(0),
    after: keyCursor(),
    // Only these documents, as `git show <rev>:<path>` (extension; repeated for several).
    key: queryKeyList(),
    // `false`: each document's key and size, no contents (extension), as `git ls-tree -l`.
    contents: contentsParam(),
    // The state at this time: the branch's last revision written at or before it (extension, as Dolt's
    // `AS OF`); ISO 8601 or milliseconds since the epoch. Empty: unused.
    as_of: asOfParam(),
  },
  ['key'],
);

/**
 * Documents by key, checked without being rebuilt: z.record assigns each key into a new object, where
 * a document named "__proto__" would set the object's prototype instead and vanish.
 */
const documentsByKeySchema = z.custom<Record<string, string>>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((content) => typeof content === 'string'),
  'must be an object of document contents (strings) by key',
);

/** The documents of a scope at one revision; a page of them carries `next_cursor` when more follow. */
export const stateResponseSchema = z.object({
  revision: z.number().int(),
  objects: documentsByKeySchema,
  next_cursor: z.string().optional(),
});
/** The documents of a scope at one revision. */
export type StateResponse = z.infer<typeof stateResponseSchema>;

/** A state read with `contents=false` (extension): its documents' keys and UTF-8 sizes, in key byte order. */
export const stateKeysResponseSchema = z.object({
  revision: z.number().int(),
  documents: z.array(z.object({ key: z.string(), bytes: z.number().int() })),
  next_cursor: z.string().optional(),
});
/** A state's documents without their contents. */
export type StateKeysResponse = z.infer<typeof stateKeysResponseSchema>;

/**
 * The side a diff goes from (extension), selected as the other side is: `checkpoint_name`, then
 * `branch_name` (its head), then `revision_id` (any revision of the namespace). A nested object rather
 * than `from_revision`, which the answer already uses for the revision compared from.
 */
export const diffFromSchema = strictFields(
  {
    revision_id: revisionSelector('from.revision_id').default(0),
    checkpoint_name: checkpointNameSchema.default(''),
    branch_name: branchSchema.default(''),
  },
  'from',
);

/** POST /v1/diff. */
export const diffRequestSchema = strictFields({
  scope: scopeSchema.default({ namespace: '', branch: '' }),
  revision_id: revisionSelector('revision_id').default(0),
  checkpoint_name: checkpointNameSchema.default(''),
  /** Another branch of the namespace, compared at its head (extension; `git diff main..feature`). */
  branch_name: branchSchema.default(''),
  /** What to compare from, instead of the scope's head (extension; `git diff v1 main`). */
  from: diffFromSchema.optional(),
  documents: documentListSchema.default([]),
  mode: applyModeSchema.default('merge'),
  /** Only the changes of these documents, as `git diff -- <path>` (extension; restore's `keys` rules). */
  keys: keysFieldSchema(),
});

/** Answer of a diff. */
export const diffResponseSchema = z.object({
  from_revision: z.number().int(),
  to_revision: z.number().int(),
  changes: z.array(changeSchema),
  contents_omitted: z.boolean().optional(),
});
/** Answer of a diff. */
export type DiffResponse = z.infer<typeof diffResponseSchema>;

// An ISO 8601 date (UTC midnight) or date-time with `Z` or an offset, as `created_at` is written.
// A space before the offset is a `+` that the query string decoded as a space (`+01:00` unencoded).
const ISO_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([+\- ])(\d{2}):?(\d{2})))?$/;

/**
 * Milliseconds since the epoch of an ISO 8601 timestamp, undefined when it is none (a date that does not
 * exist, such as 2026-02-30, included). Digits past the millisecond round up: `created_at` is whole
 * milliseconds, so `created_at >= t` and `created_at < t` hold exactly when they hold for the rounded value.
 */
export function parseIsoTimestamp(value: string): number | undefined {
  const match = ISO_TIMESTAMP.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0));
  const fraction = match[7] ?? '';
  const [zulu, sign, offsetHours, offsetMinutes] = match.slice(8, 12);
  const offset =
    zulu || sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes));
  if (hour > 23 || minute > 59 || second > 59 || Number(offsetHours ?? 0) > 23 || Number(offsetMinutes ?? 0) > 59)
    return undefined;
  // Date.UTC would read years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  const local = date.getTime();
  const millis = Number(fraction.slice(0, 3).padEnd(3, '0')) + (/[1-9]/.test(fraction.slice(3)) ? 1 : 0);
  return local + millis - offset * 60_000;
}

/** A query parameter holding an ISO 8601 timestamp, read as milliseconds since the epoch; empty: unused. */
const timestampParam = (name: string) =>
  text()
    .refine((value) => value === '' || parseIsoTimestamp(value) !== undefined, {
      error: (issue) => {
        const given = typeof issue.input === 'string' ? issue.input : '';
        const zone = /^\d{4}-\d{2}-\d{2}[Tt][\d:.,]+$/.test(given)
          ? ' (add Z for UTC, or an offset such as +01:00)'
          : '';
        return (
          `${name} must be an ISO 8601 timestamp such as 2026-11-30T08:00:00Z, 2026-11-30T09:00:00+01:00 or ` +
          `2026-11-30 (midnight UTC), got ${JSON.stringify(given)}${zone}`
        );
      },
    })
    .default('')
    .transform((value) => (value === '' ? undefined : parseIsoTimestamp(value)));

/** GET /v1/log query. */
export const logQuerySchema = querySchema({
  namespace: namespaceSchema.default(''),
  branch: branchSchema.default(''),
  limit: queryInt('limit', Infinity).default(0),
  after: queryInt('after').default(0),
  // Only the revisions that changed this document, as `git log -- <path>` (extension; empty: all).
  key: z.string().max(MAX_KEY_LENGTH, `must be at most ${MAX_KEY_LENGTH} characters`).default(''),
  // `false`: each change with its key and type only, for listing a long history of large documents (extension).
  contents: contentsParam(),
  // Only the revisions written from `since` (inclusive) to `until` (exclusive), as `git log --since --until`
  // (extension).
  since: timestampParam('since'),
  until: timestampParam('until'),
  // Oldest first, the revisions after this one (exclusive; 0 from the first), for tailing a branch
  // (extension, as `git log --reverse A..`); the next page's since_revision is next_cursor. Empty: unused.
  since_revision: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.preprocess(decimalInteger, wholeNumber('since_revision')).optional(),
  ),
});

/** One revision of a branch's history. */
export const logEntrySchema = z.object({
  id: z.number().int(),
  parent_id: z.number().int(),
  branch: z.string(),
  message: z.string(),
  created_at: z.string(),
  changes: z.array(changeSchema),
  // The changes carry keys and types only: their contents passed response_bytes (read them in pages).
  contents_omitted: z.boolean().optional(),
});
/** One revision of a branch's history. */
export type LogEntry = z.infer<typeof logEntrySchema>;

/**
 * A page of history, newest first; `next_cursor` is the `after` of the next page, `total` the number of
 * entries over all pages (Gatehouse extension). With `since_revision`, oldest first: `next_cursor` is
 * the `since_revision` of the next page, and `total` counts the entries after the `since_revision` sent.
 */
export const logResponseSchema = z.object({
  entries: z.array(logEntrySchema),
  next_cursor: z.number().int().optional(),
  total: z.number().int().optional(),
});
/** A page of history. */
export type LogResponse = z.infer<typeof logResponseSchema>;

/** GET /v1/revisions/:id (Gatehouse extension). */
export const revisionParamsSchema = z.object({
  id: z.preprocess(storeInteger, wholeNumber('id', MAX_INTEGER, 1)),
});
/** Query of GET /v1/revisions/:id. */
export const revisionQuerySchema = querySchema(
  {
    namespace: namespaceSchema.default(''),
    // Either one asks for a page of the revision's changes rather than all of them.
    limit: queryInt('limit', Infinity).default(0),
    after: keyCursor(),
    // Only the changes of these documents (repeated for several).
    key: queryKeyList(),
    // `false`: each change with its key, type and sizes, no contents.
    contents: contentsParam(),
  },
  ['key'],
);

/** One revision; a page of its changes carries `next_cursor` when more follow. */
export const revisionResponseSchema = logEntrySchema.extend({ next_cursor: z.string().optional() });

/** POST /v1/checkpoints. */
export const checkpointCreateRequestSchema = strictFields({
  scope: scopeSchema.default({ namespace: '', branch: '' }),
  name: newCheckpointNameSchema.min(1, 'must not be empty'),
  description: freeText,
  // Extensions: the revision to mark (0, the default, is the head), the head a writer saw, and
  // whether a checkpoint of that name may be moved (`git tag -f`, the default) or not (`git tag`), and
  // the revision an existing one must still mark to be moved (a compare-and-swap on the checkpoint).
  revision_id: revisionSelector('revision_id').default(0),
  expected_revision: expectedRevision,
  create_only: z.boolean({ error: (issue) => `must be true or false, got ${jsonKind(issue.input)}` }).default(false),
  expected_checkpoint_revision: revisionSelector('expected_checkpoint_revision').nullish(),
});

/** Answer of checkpoint creation. */
export const checkpointCreateResponseSchema = z.object({ name: z.string(), revision_id: z.number().int() });

/** DELETE /v1/checkpoints. */
export const checkpointDeleteRequestSchema = strictFields({
  namespace: namespaceSchema.default(''),
  name: checkpointNameSchema.min(1, 'must not be empty'),
  // Extension: the revision the checkpoint must still mark to be deleted.
  expected_revision: expectedRevision,
});

/** GET /v1/checkpoints query (Gatehouse extension). */
export const checkpointListQuerySchema = querySchema({
  namespace: namespaceSchema.default(''),
  limit: queryInt('limit', Infinity).default(0),
  after: checkpointNameSchema.default(''),
});

/** One checkpoint in a listing. */
export const checkpointSchema = z.object({
  name: z.string(),
  revision_id: z.number().int(),
  branch: z.string(),
  description: z.string(),
  created_at: z.string(),
});
/** One checkpoint in a listing. */
export type Checkpoint = z.infer<typeof checkpointSchema>;

/** Answer of the checkpoint listing. */
export const checkpointListResponseSchema = z.object({
  checkpoints: z.array(checkpointSchema),
  next_cursor: z.string().optional(),
});

/** POST /v1/rollback. */
export const rollbackRequestSchema = strictFields({
  scope: scopeSchema.default({ namespace: '', branch: '' }),
  revision_id: revisionSelector('revision_id').default(0),
  checkpoint_name: checkpointNameSchema.default(''),
  message,
  expected_revision: expectedRevision,
  contents: writeContents,
});

/** GET /v1/branches query. */
export const branchListQuerySchema = querySchema({
  namespace: namespaceSchema.default(''),
  branch: branchSchema.default(''),
  limit: queryInt('limit', Infinity).default(0),
  after: branchSchema.default(''),
});

/** One branch in a listing. */
export const branchSummarySchema = z.object({
  name: z.string(),
  base_revision: z.number().int(),
  head_revision: z.number().int(),
  current: z.boolean(),
});
/** One branch in a listing. */
export type BranchSummary = z.infer<typeof branchSummarySchema>;

/** Answer of the branch listing, sorted by name. */
export const branchListResponseSchema = z.object({
  branches: z.array(branchSummarySchema),
  next_cursor: z.string().optional(),
});

/** POST /v1/branches. */
export const branchCreateRequestSchema = strictFields({
  scope: scopeSchema.default({ namespace: '', branch: '' }),
  name: branchSchema.min(1, 'must not be empty'),
  from_revision: revisionSelector('from_revision').default(0),
  from_checkpoint: checkpointNameSchema.default(''),
});

/** Answer of branch creation. */
export const branchCreateResponseSchema = z.object({
  name: z.string(),
  base_revision: z.number().int(),
  head_revision: z.number().int(),
});

/** DELETE /v1/branches (Gatehouse extension). */
export const branchDeleteRequestSchema = strictFields({
  namespace: namespaceSchema.default(''),
  name: branchSchema.min(1, 'must not be empty'),
  expected_revision: expectedRevision,
  /**
   * Deletes only when that branch's history holds the head (`git branch -d`): 409 `not_merged`
   * otherwise. Optional rather than defaulted, so a request without it keeps its `Idempotency-Key` fingerprint.
   */
  require_merged_into: branchSchema.min(1, 'must not be empty').optional(),
});

/** POST /v1/branches/rename (Gatehouse extension): `git branch -m`. */
export const branchRenameRequestSchema = strictFields({
  namespace: namespaceSchema.default(''),
  name: branchSchema.min(1, 'must not be empty'),
  new_name: branchSchema.min(1, 'must not be empty'),
  expected_revision: expectedRevision,
});

/** Answer of a branch rename: the branch under its new name, and the name it had. */
export const branchRenameResponseSchema = z.object({
  name: z.string(),
  previous_name: z.string(),
  base_revision: z.number().int(),
  head_revision: z.number().int(),
});
/** Answer of a branch rename. */
export type BranchRenameResponse = z.infer<typeof branchRenameResponseSchema>;

/** Answer of a branch deletion: the head it had and the revisions deleted with it. */
export const branchDeleteResponseSchema = z.object({
  name: z.string(),
  head_revision: z.number().int(),
  pruned: z.number().int(),
});
/** Answer of a branch deletion. */
export type BranchDeleteResponse = z.infer<typeof branchDeleteResponseSchema>;

/** POST /v1/restore. */
export const restoreRequestSchema = strictFields({
  scope: scopeSchema.default({ namespace: '', branch: '' }),
  from_branch: branchSchema.default(''),
  from_revision: revisionSelector('from_revision').default(0),
  from_checkpoint: checkpointNameSchema.default(''),
  message,
  expected_revision: expectedRevision,
  /**
   * Only these documents, as `git checkout <rev> -- <path>` (extension); a key absent at the source is
   * deleted. Optional rather than defaulted, so a request without it keeps its `Idempotency-Key` fingerprint.
   */
  keys: keysFieldSchema(),
  contents: writeContents,
});

/**
 * Gatehouse extension on revert, cherry-pick and merge: work the write out and answer it, refusals included, and
 * write nothing. Optional rather than defaulted, so a request without it keeps its `Idempotency-Key`
 * fingerprint.
 */
const dryRun = z
  .boolean({ error: (issue) => `dry_run must be true or false, got ${jsonKind(issue.input)}` })
  .optional();

/** Marks the answer of a dry run: what the write would answer, with `revision` the head as it is. */
const dryRunAnswer = { dry_run: z.literal(true).optional() };

/** POST /v1/revert (Gatehouse extension): undo one revision reachable from the branch's head. */
export const revertRequestSchema = strictFields({
  scope: scopeSchema.default({ namespace: '', branch: '' }),
  revision_id: wholeNumber('revision_id', MAX_INTEGER, 1),
  message,
  expected_revision: expectedRevision,
  dry_run: dryRun,
  contents: writeContents,
});
/** A revert request as sent by clients. */
export type RevertRequest = z.input<typeof revertRequestSchema>;

/** Answer of a revert: apply's, marked when it was a dry run. */
export const revertResponseSchema = applyResponseSchema.extend(dryRunAnswer);
/** Answer of a revert. */
export type RevertResponse = z.infer<typeof revertResponseSchema>;

/**
 * POST /v1/cherry-pick (Gatehouse extension): make on the branch's head what one revision of the
 * namespace (typically of another branch) changed. Its fields are revert's.
 */
export const cherryPickRequestSchema = revertRequestSchema;
/** A cherry-pick request as sent by clients. */
export type CherryPickRequest = z.input<typeof cherryPickRequestSchema>;

/** Answer of a cherry-pick: apply's, marked when it was a dry run, as revert's. */
export const cherryPickResponseSchema = revertResponseSchema;
/** Answer of a cherry-pick. */
export type CherryPickResponse = z.infer<typeof cherryPickResponseSchema>;

/** The side a merge conflict takes: `ours` keeps the target branch's content, `theirs` takes the source's. */
export const mergeSideSchema = z.enum(['ours', 'theirs'], {
  error: (issue) => `must be "ours" or "theirs", got ${JSON.stringify(issue.input) ?? 'nothing'}`,
});
/** The side a merge conflict takes. */
export type MergeSide = z.infer<typeof mergeSideSchema>;

/**
 * Sides by document key, checked without being rebuilt (as documents by key are: a key "__proto__"
 * would otherwise vanish).
 */
const sidesByKeySchema = z.custom<Record<string, MergeSide>>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((side) => side === 'ours' || side === 'theirs'),
  'must be an object of "ours" or "theirs" by document key',
);

/** POST /v1/merge (Gatehouse extension): three-way merge of another branch's head into the scope's branch. */
export const mergeRequestSchema = strictFields({
  scope: scopeSchema.default({ namespace: '', branch: '' }),
  from_branch: branchSchema.min(1, 'must not be empty'),
  message,
  expected_revision: expectedRevision,
  // The source's head the caller previewed: a source that moved since is refused, as the target is.
  expected_from_revision: revisionSelector('expected_from_revision').nullish(),
  dry_run: dryRun,
  // Optional rather than defaulted, as dry_run, so a request without them keeps its fingerprint.
  /** The side every conflicting document takes unless `resolve` names it (`dolt conflicts resolve --ours`). */
  strategy: mergeSideSchema.optional(),
  /** The side each named conflicting document takes; a key that is no conflict is refused. */
  resolve: sidesByKeySchema.optional(),
  contents: writeContents,
});

/**
 * Answer of a merge: as apply's, with the merge base (the newest best common ancestor of the two heads,
 * following branch bases and recorded merges; 0 for none) and the source head that was merged; marked
 * when it was a dry run.
 */
export const mergeResponseSchema = applyResponseSchema.extend({
  merge_base: z.number().int(),
  from_revision: z.number().int(),
  /** The conflicts `strategy` or `resolve` settled, by key bytes, and the side each took; absent when none. */
  resolved: z.array(z.object({ key: z.string(), side: mergeSideSchema })).optional(),
  ...dryRunAnswer,
});
/** Answer of a merge. */
export type MergeResponse = z.infer<typeof mergeResponseSchema>;

/** The largest `keep` gc accepts. */
export const GC_KEEP_MAX = MAX_INTEGER;

/** POST /v1/gc. */
export const gcRequestSchema = strictFields({
  keep: wholeNumber('keep', GC_KEEP_MAX).default(0),
  /** Gatehouse extension: count what would be pruned, delete nothing. */
  dry_run: z.boolean({ error: 'dry_run must be a boolean' }).default(false),
  /** Gatehouse extension: prune this namespace alone (absent: every namespace; empty, as elsewhere: `default`). */
  namespace: namespaceSchema.optional(),
  /** Gatehouse extension: after the prune, give the database's free pages back to the disk (VACUUM). */
  compact: z.boolean({ error: 'compact must be a boolean' }).default(false),
});

/**
 * Answer of garbage collection. `free_bytes` (extension): the database's free pages, what a compact
 * would give back; `compacted_bytes`, after a compact, how much smaller the database became.
 */
export const gcResponseSchema = z.object({
  pruned: z.number().int(),
  free_bytes: z.number().int(),
  compacted_bytes: z.number().int().optional(),
});

/** GET /v1/namespaces query (Gatehouse extension). */
export const namespaceListQuerySchema = querySchema({
  limit: queryInt('limit', Infinity).default(0),
  after: namespaceSchema.default(''),
});

/** One namespace in a listing. */
export const namespaceSummarySchema = z.object({
  name: z.string(),
  branches: z.number().int(),
  revisions: z.number().int(),
  checkpoints: z.number().int(),
  head_revision: z.number().int(),
  created_at: z.string(),
});
/** One namespace in a listing. */
export type NamespaceSummary = z.infer<typeof namespaceSummarySchema>;

/** Answer of the namespace listing, sorted by name. */
export const namespaceListResponseSchema = z.object({
  namespaces: z.array(namespaceSummarySchema),
  next_cursor: z.string().optional(),
});

/** `GET /v1/token`'s query: a namespace to be told the caller's verbs on. */
export const tokenQuerySchema = querySchema({ namespace: namespaceSchema.optional() });

const storeVerbSchema = z.enum(['read', 'write', 'admin']);

/** What the caller's token grants (`GET /v1/token`); never the token itself. */
export const tokenResponseSchema = z.object({
  /** False when `store.auth.enabled` is false: every request is then granted everything. */
  auth: z.boolean(),
  /** The token's name in `store.auth.tokens` (`primary` for STORE_TOKEN or the generated one); null without auth. */
  name: z.string().nullable(),
  verbs: z.array(storeVerbSchema),
  /** Grant patterns: `*`, `team/*` (a subtree) or an exact namespace. */
  namespaces: z.array(z.string()),
  /** Branch patterns (`agent-*`, an exact name) the token may change, when limited to some; absent: every branch. */
  branches: z.array(z.string()).optional(),
  /** With `?namespace=`: the verbs the token holds on that namespace (none when it is not granted). */
  namespace: z.object({ name: z.string(), verbs: z.array(storeVerbSchema) }).optional(),
});
/** `GET /v1/token`'s answer. */
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** An empty JSON object (DELETE answers). */
export const emptyResponseSchema = z.object({});

/** The error body every failure answers with. */
export const storeErrorSchema = z.object({
  error: z.object({
    type: z.string(),
    message: z.string(),
    code: z.number().int(),
    /** On a 409 for a moved branch head: the head it is at. */
    head_revision: z.number().int().optional(),
    /** On a merge's 409 for a moved source branch (`expected_from_revision`): the head that branch is at. */
    from_head_revision: z.number().int().optional(),
    /**
     * On every 409: why, for clients that must not parse the message (`head_moved`, `merge_conflict`,
     * `revert_conflict`, `cherry_pick_conflict`, `already_applied`, `exists`, `in_use`, `not_merged`,
     * `in_progress`, `checkpoint_moved`; docs/store.md#errors).
     */
    reason: z.string().optional(),
    /** On a merge conflict: the merge base it was judged against (the newest of several; 0: none). */
    merge_base: z.number().int().optional(),
    /** On `exists` or `checkpoint_moved`: the revision the checkpoint points at. */
    checkpoint_revision: z.number().int().optional(),
    /** On `not_merged`: how many of the branch's revisions the named branch does not hold. */
    unmerged_revisions: z.number().int().optional(),
    /** On a merge, revert or cherry-pick conflict: the documents in the way, in key order (the first 100). */
    conflicts: z.array(z.object({ key: z.string(), reason: z.string() })).optional(),
    /** True when `conflicts` was cut at its bound. */
    conflicts_truncated: z.boolean().optional(),
  }),
});
