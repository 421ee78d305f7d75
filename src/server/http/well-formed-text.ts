import { badRequest, type AppError } from './errors.js';
import { findInTree, refusedAt, shortPath } from './json-tree.js';

/** `String.prototype.isWellFormed` (Node 20): one native pass; the compiler's ES2023 library lacks its type. */
const isWellFormed = (text: string): boolean => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/** Longest document key a refusal quotes before cutting it short. */
const SHOWN_KEY_CHARS = 100;

/**
 * Where the first lone UTF-16 surrogate of `text` stands, counted in characters (code points) from 0,
 * or -1 when the text is well-formed. Called only once `isWellFormed` said no: the slow walk is the
 * rare case.
 */
function loneSurrogateAt(text: string): number {
  let character = 0;
  for (let i = 0; i < text.length; i++, character++) {
    const unit = text.charCodeAt(i);
    const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
    else if (unit >= 0xd800 && unit <= 0xdfff) return character;
  }
  return -1;
}

/** 400 naming the field, the document key beside it (`named`) and where the surrogate stands. */
function refusal(field: string, named: string, text: string, param: string | null): AppError {
  return badRequest(
    `${field}${named} holds a lone UTF-16 surrogate at character ${loneSurrogateAt(text)}: not valid Unicode text`,
    param,
  );
}

/**
 * JSON escapes of UTF-16 surrogates (`\ud800`): the only way a body that passed the UTF-8 check can
 * hold a lone one. Pairs match too (an emoji written as two escapes); the tree walk tells them apart.
 */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/**
 * A body's strings and keys checked for lone UTF-16 surrogates, for the routes whose text is stored.
 * A JSON escape such as `"\ud800"` is valid JSON and passes the body's UTF-8 check (the bytes are
 * ASCII), but a lone surrogate has no UTF-8 form
 * (SQLite would keep U+FFFD in its place: different text than was sent). Only a body whose text
 * holds a surrogate escape is walked. Answers a 400 naming the field, the `key` beside it (a store or
 * RAG document's) and where the surrogate stands; null when every string is well-formed.
 */
export function loneSurrogateError(text: string, root: unknown): AppError | null {
  if (!SURROGATE_ESCAPE.test(text)) return null;
  return findInTree(root, ({ value, path, key, parent, parentPath }) => {
    if (key !== null && !isWellFormed(key))
      return refusedAt(
        parentPath,
        `a key in ${shortPath(parentPath) || 'the request body'} holds a lone UTF-16 surrogate: not valid Unicode text`,
      );
    if (typeof value !== 'string' || isWellFormed(value)) return null;
    return refusal(shortPath(path) || 'request body', keyBeside(parent, key), value, path === '' ? null : path);
  });
}

/** ` (key 'a.txt')` for a value whose object also holds a well-formed string `key`, as documents do. */
function keyBeside(parent: unknown, field: string | null): string {
  if (field === 'key' || typeof parent !== 'object' || parent === null || Array.isArray(parent)) return '';
  const key = (parent as Record<string, unknown>).key;
  if (typeof key !== 'string' || !isWellFormed(key)) return '';
  return ` (key '${key.length > SHOWN_KEY_CHARS ? `${key.slice(0, SHOWN_KEY_CHARS)}...` : key}')`;
}
