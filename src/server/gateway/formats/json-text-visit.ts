import type { TextLocation, TextVisitor } from './text-visitor.js';

/** A container the walk is inside, and the path of the value it is reading there. */
interface Level {
  readonly array: boolean;
  readonly path: string;
  /** The next member's index (arrays), or the key just read (objects). */
  index: number;
  key: string;
  /** Objects: the next string is a key. */
  expectsKey: boolean;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/y;
const LITERAL = /true|false|null/y;

/**
 * Visits the strings, object keys and numbers of a JSON text as a reader takes them (escapes decoded:
 * `ada\u0040example.com` is `ada@example.com`), and writes a replacement in place of its token only:
 * every other byte of the text stays as it was, so numbers past a double's precision, `1.0`, repeated
 * keys and the writer's spacing go on unchanged. A replaced key renames its member; a replaced number
 * becomes the replacing string. Paths are those of {@link visitJsonStrings} (`<where>.to`, `<where>[0]`).
 * Null when the text is not JSON this walk reads (the caller then visits it as written); nothing is
 * built from the text, so a `__proto__` key, a huge number or deep nesting is read like any other.
 */
export function visitJsonText(text: string, visitor: TextVisitor, where: TextLocation): string | null {
  const stack: Level[] = [];
  let out = '';
  let copiedTo = 0;
  let position = 0;
  /** Values begun at the top: a second one means the text is not one JSON text. */
  let topValues = 0;

  const valuePath = (): string => {
    const level = stack[stack.length - 1];
    if (level === undefined) return where.path;
    return level.array ? `${level.path}[${level.index}]` : `${level.path}.${level.key}`;
  };
  const visit = (shown: string, path: string, start: number, end: number): void => {
    const replaced = visitor(shown, { ...where, path });
    if (typeof replaced !== 'string' || replaced === shown) return;
    out += text.slice(copiedTo, start) + JSON.stringify(replaced);
    copiedTo = end;
  };

  while (position < text.length) {
    const char = text[position]!;
    if (WHITESPACE.has(char)) {
      position += 1;
      continue;
    }
    const level = stack[stack.length - 1];
    const isKey = char === '"' && level !== undefined && !level.array && level.expectsKey;
    if (level === undefined && !isKey && char !== '}' && char !== ']' && char !== ',' && char !== ':') {
      topValues += 1;
      if (topValues > 1) return null;
    }
    if (char === '{' || char === '[') {
      stack.push({ array: char === '[', path: valuePath(), index: 0, key: '', expectsKey: char === '{' });
      position += 1;
    } else if (char === '}' || char === ']') {
      if (level === undefined || level.array !== (char === ']')) return null;
      stack.pop();
      position += 1;
    } else if (char === ',') {
      if (level === undefined) return null;
      if (level.array) level.index += 1;
      else level.expectsKey = true;
      position += 1;
    } else if (char === ':') {
      if (level === undefined || level.array) return null;
      position += 1;
    } else if (char === '"') {
      const end = stringEnd(text, position);
      if (end < 0) return null;
      let decoded: string;
      try {
        decoded = JSON.parse(text.slice(position, end)) as string;
      } catch {
        return null;
      }
      if (isKey) {
        visit(decoded, `${level!.path}.${decoded}`, position, end);
        level!.key = decoded;
        level!.expectsKey = false;
      } else visit(decoded, valuePath(), position, end);
      position = end;
    } else {
      const token = match(NUMBER, text, position) ?? match(LITERAL, text, position);
      if (token === undefined) return null;
      if (char !== 't' && char !== 'f' && char !== 'n') visit(token, valuePath(), position, position + token.length);
      position += token.length;
    }
  }
  if (stack.length > 0) return null;
  return copiedTo === 0 ? text : out + text.slice(copiedTo);
}

/** The index just past the closing quote of the string starting at `start`; -1 when it does not close. */
function stringEnd(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (char === 92) index += 1;
    else if (char === 34) return index + 1;
  }
  return -1;
}

function match(pattern: RegExp, text: string, position: number): string | undefined {
  pattern.lastIndex = position;
  return pattern.exec(text)?.[0];
}
