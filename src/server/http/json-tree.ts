import { badRequest, type AppError } from './errors.js';

/** A value met by {@link findInTree}, with its path, its key, the object or array holding it and its depth. */
export interface TreeEntry {
  readonly value: unknown;
  readonly path: string;
  readonly key: string | null;
  readonly parent: unknown;
  readonly parentPath: string;
  /** Levels of objects and arrays down to this value; the body itself is at 1. */
  readonly depth: number;
}

/** Visits every value in document order, iteratively, until `visit` answers a refusal. */
export function findInTree(
  root: unknown,
  visit: (entry: TreeEntry) => AppError | null,
  keyName: (key: string) => string = (key) => key,
): AppError | null {
  const stack: TreeEntry[] = [{ value: root, path: '', key: null, parent: null, parentPath: '', depth: 1 }];
  while (stack.length > 0) {
    const entry = stack.pop() as TreeEntry;
    const found = visit(entry);
    if (found !== null) return found;
    const { value, path, depth } = entry;
    if (typeof value !== 'object' || value === null) continue;
    const children: TreeEntry[] = Array.isArray(value)
      ? value.map((child: unknown, i) => ({
          value: child,
          path: `${path}[${i}]`,
          key: null,
          parent: value,
          parentPath: path,
          depth: depth + 1,
        }))
      : Object.keys(value).map((key) => ({
          value: (value as Record<string, unknown>)[key],
          path: childPath(path, keyName(key)),
          key,
          parent: value,
          parentPath: path,
          depth: depth + 1,
        }));
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return null;
}

function childPath(path: string, key: string): string {
  const name = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
  if (name === key) return path === '' ? key : `${path}.${key}`;
  return `${path}[${name}]`;
}

/** Keeps a path readable when the nesting that made it is hundreds of levels deep. */
export function shortPath(path: string): string {
  return path.length > 200 ? `${path.slice(0, 120)}...${path.slice(-60)}` : path;
}

/** A refusal naming the field at `path` (the whole body when empty) as the one at fault. */
export function refusedAt(path: string, message: string): AppError {
  return badRequest(message, path === '' ? null : shortPath(path));
}
