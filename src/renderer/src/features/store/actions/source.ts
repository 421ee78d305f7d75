import { assertNever } from '../../../../../shared/assert-never.js';

/**
 * Where a restore or a comparison takes its documents from. A revision id is kept as the user typed
 * it, so a value that is not one can be shown back with what is wrong rather than rewritten.
 */
export type RestoreSource =
  | { readonly kind: 'branch'; readonly branch: string }
  | { readonly kind: 'revision'; readonly revision: string }
  | { readonly kind: 'checkpoint'; readonly checkpoint: string };

/** The revision id a typed value names: a whole number above 0, else undefined. */
export function revisionIdOf(text: string): number | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const id = Number(text);
  return id > 0 && Number.isSafeInteger(id) ? id : undefined;
}

/** A revision source for a known id. */
export function revisionSource(id: number): RestoreSource {
  return { kind: 'revision', revision: String(id) };
}

/** Names a source for titles and messages. */
export function describeSource(source: RestoreSource): string {
  switch (source.kind) {
    case 'branch':
      return `branch ${source.branch}`;
    case 'revision':
      return `#${source.revision}`;
    case 'checkpoint':
      return `checkpoint “${source.checkpoint}”`;
    default:
      return assertNever(source);
  }
}

/** Nothing chosen yet: no branch, no revision id typed, no checkpoint. */
export function isEmptySource(source: RestoreSource): boolean {
  switch (source.kind) {
    case 'branch':
      return source.branch === '';
    case 'revision':
      return source.revision === '';
    case 'checkpoint':
      return source.checkpoint === '';
    default:
      return assertNever(source);
  }
}

/** What is wrong with the typed form of a source, before asking the store anything (undefined: nothing). */
export function sourceSyntaxProblem(
  source: RestoreSource,
): { readonly title: string; readonly detail: string } | undefined {
  if (source.kind !== 'revision' || source.revision === '' || revisionIdOf(source.revision) !== undefined) return;
  return {
    title: `“${source.revision}” is not a revision id`,
    detail: 'A revision id is a whole number above 0, like 12.',
  };
}

/** True when the source names something that can be read (a branch, a valid revision id, a checkpoint). */
export function isCompleteSource(source: RestoreSource): boolean {
  return !isEmptySource(source) && sourceSyntaxProblem(source) === undefined;
}

/**
 * A revision id as typed, for a URL parameter: the id itself (`12`), or `rev:<text>` while it is not
 * one yet (empty, or being typed), so choosing Revision and what was typed survive the round trip
 * through the address.
 */
export function encodeRevisionParam(text: string): string {
  return revisionIdOf(text) !== undefined ? text : `rev:${text}`;
}

/** The revision id as typed that {@link encodeRevisionParam} put in a URL parameter (or a bare `abc`). */
export function decodeRevisionParam(value: string): string {
  return value.startsWith('rev:') ? value.slice(4) : value;
}

/**
 * A source in a URL parameter: `12` (a revision), `cp:<name>` (a checkpoint), `branch:<name>` (a
 * branch head). `rev:<text>` holds a revision id still being typed (empty, or not yet a number), so
 * choosing Revision survives the round trip through the address.
 */
export function decodeSource(value: string | null, fallbackBranch: string): RestoreSource {
  if (value === null || value === '') return { kind: 'branch', branch: fallbackBranch };
  if (value.startsWith('cp:')) return { kind: 'checkpoint', checkpoint: value.slice(3) };
  if (value.startsWith('branch:')) return { kind: 'branch', branch: value.slice(7) };
  return { kind: 'revision', revision: decodeRevisionParam(value) };
}

/** The URL parameter for a source; `decodeSource` reads it back as the same source. */
export function encodeSource(source: RestoreSource): string {
  switch (source.kind) {
    case 'checkpoint':
      return `cp:${source.checkpoint}`;
    case 'branch':
      return `branch:${source.branch}`;
    case 'revision':
      return encodeRevisionParam(source.revision);
    default:
      return assertNever(source);
  }
}
