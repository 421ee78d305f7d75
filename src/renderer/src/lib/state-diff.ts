import type { Change } from '../../../shared/store-api.js';

/** Bytewise (UTF-8) key order, as the store sorts changes; plain `<` compares UTF-16 units. */
export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  const encoder = new TextEncoder();
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  const length = Math.min(x.length, y.length);
  for (let i = 0; i < length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/**
 * The content of one document of a state, undefined when the state has no such key. An own-property
 * lookup: document keys are any string, and `objects.toString` or `"constructor" in objects` would
 * otherwise find Object.prototype's members.
 */
export function documentContent(objects: Readonly<Record<string, string>>, key: string): string | undefined {
  return Object.hasOwn(objects, key) ? objects[key] : undefined;
}

/** The changes that turn one set of documents into another (compare, restore previews). */
export function diffStates(
  before: Readonly<Record<string, string>>,
  after: Readonly<Record<string, string>>,
): Change[] {
  const changes: Change[] = [];
  for (const [key, content] of Object.entries(after)) {
    const previous = documentContent(before, key);
    if (previous === undefined) changes.push({ key, type: 'create', after: content });
    else if (previous !== content) changes.push({ key, type: 'update', before: previous, after: content });
  }
  for (const [key, content] of Object.entries(before)) {
    if (!Object.hasOwn(after, key)) changes.push({ key, type: 'delete', before: content });
  }
  return changes.sort((a, b) => compareKeys(a.key, b.key));
}
