import type { ApplyResponse } from '../../../shared/store-api.js';

/**
 * A write's answer as asked for: with `contents: false`, each change by key and type only, marked
 * `contents_omitted` (the shape a write-only token gets), so a one-field change of a 950 KB document
 * answers in bytes rather than with both whole sides.
 */
export function changesAsAsked<T extends ApplyResponse>(contents: false | undefined, answer: T): T {
  return contents === false ? withoutContents(answer) : answer;
}

/** The answer's changes by key and type only, marked `contents_omitted` so no one reads them as empty. */
export function withoutContents<T extends ApplyResponse>(answer: T): T {
  return { ...answer, changes: answer.changes.map(({ key, type }) => ({ key, type })), contents_omitted: true };
}
