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

// Characters by code: the walk reads the text with charCodeAt, which makes no string per character.
const SPACE = code(' ');
const TAB = code('\t');
const LINE_FEED = code('\n');
const CARRIAGE_RETURN = code('\r');
const QUOTE = code('"');
const BACKSLASH = code('\\');
const COMMA = code(',');
const COLON = code(':');
const OPEN_BRACE = code('{');
const CLOSE_BRACE = code('}');
const OPEN_BRACKET = code('[');
const CLOSE_BRACKET = code(']');
const LOWER_T = code('t');
const LOWER_F = code('f');
const LOWER_N = code('n');
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/y;
const LITERAL = /true|false|null/y;

/** Called on each string, key and number of the text, decoded, with its path and where it is written. */
type TokenVisit = (shown: string, path: string, start: number, end: number) => void;

/**
 * Visits the strings, object keys and numbers of a JSON text as a reader takes them (escapes decoded:
 * `ada\u0040example.com` is `ada@example.com`), and writes a replacement in place of its token only:
 * every other byte of the text stays as it was, so numbers past a double's precision, `1.0`, repeated
 * keys and the writer's spacing go on unchanged. A replaced key renames its member; a replaced number
 * becomes the replacing string. Paths are those of {@link visitJsonStrings} (`<where>.to`, `<where>[0]`).
 * Null when the text is not JSON this walk reads (the caller then visits it as written), found before
 * any token is visited: a visitor that counts what it sees sees the text once. Nothing is built from
 * the text, so a `__proto__` key, a huge number or deep nesting is read like any other.
 */
export function visitJsonText(text: string, visitor: TextVisitor, where: TextLocation): string | null {
  if (!walkJson(text, where.path)) return null;
  let out = '';
  let copiedTo = 0;
  walkJson(text, where.path, (shown, path, start, end) => {
    const replaced = visitor(shown, { ...where, path });
    if (typeof replaced !== 'string' || replaced === shown) return;
    out += text.slice(copiedTo, start) + JSON.stringify(replaced);
    copiedTo = end;
  });
  return copiedTo === 0 ? text : out + text.slice(copiedTo);
}

/**
 * Walks one JSON text, calling `visit` (when given) on its strings, keys and numbers in order; false
 * when the text is not one JSON text. Without `visit` it only checks, building no path.
 */
function walkJson(text: string, root: string, visit?: TokenVisit): boolean {
  const stack: Level[] = [];
  let position = 0;
  /** Values begun at the top: a second one means the text is not one JSON text. */
  let topValues = 0;

  const valuePath = (): string => {
    if (visit === undefined) return '';
    const level = stack[stack.length - 1];
    if (level === undefined) return root;
    return level.array ? `${level.path}[${level.index}]` : `${level.path}.${level.key}`;
  };

  while (position < text.length) {
    const char = text.charCodeAt(position);
    if (char === SPACE || char === TAB || char === LINE_FEED || char === CARRIAGE_RETURN) {
      position += 1;
      continue;
    }
    const level = stack[stack.length - 1];
    const isKey = char === QUOTE && level !== undefined && !level.array && level.expectsKey;
    if (
      level === undefined &&
      !isKey &&
      char !== CLOSE_BRACE &&
      char !== CLOSE_BRACKET &&
      char !== COMMA &&
      char !== COLON
    ) {
      topValues += 1;
      if (topValues > 1) return false;
    }
    if (char === OPEN_BRACE || char === OPEN_BRACKET) {
      stack.push({
        array: char === OPEN_BRACKET,
        path: valuePath(),
        index: 0,
        key: '',
        expectsKey: char === OPEN_BRACE,
      });
      position += 1;
    } else if (char === CLOSE_BRACE || char === CLOSE_BRACKET) {
      if (level === undefined || level.array !== (char === CLOSE_BRACKET)) return false;
      stack.pop();
      position += 1;
    } else if (char === COMMA) {
      if (level === undefined) return false;
      if (level.array) level.index += 1;
      else level.expectsKey = true;
      position += 1;
    } else if (char === COLON) {
      if (level === undefined || level.array) return false;
      position += 1;
    } else if (char === QUOTE) {
      const end = stringEnd(text, position);
      if (end < 0) return false;
      const decoded = decodeString(text, position, end);
      if (decoded === null) return false;
      if (isKey) {
        visit?.(decoded, `${level!.path}.${decoded}`, position, end);
        level!.key = decoded;
        level!.expectsKey = false;
      } else visit?.(decoded, valuePath(), position, end);
      position = end;
    } else {
      const token = match(NUMBER, text, position) ?? match(LITERAL, text, position);
      if (token === undefined) return false;
      if (char !== LOWER_T && char !== LOWER_F && char !== LOWER_N)
        visit?.(token, valuePath(), position, position + token.length);
      position += token.length;
    }
  }
  return stack.length === 0;
}

/** The value of the string written at `[start, end)`, quotes included; null when it is not a JSON string. */
function decodeString(text: string, start: number, end: number): string | null {
  // Most strings hold no escape: their text is their value, with no parse to pay for.
  if (!needsDecoding(text, start + 1, end - 1)) return text.slice(start + 1, end - 1);
  try {
    return JSON.parse(text.slice(start, end)) as string;
  } catch {
    return null;
  }
}

/** Whether `[start, end)` holds an escape, or a control character (which a JSON string may hold only escaped). */
function needsDecoding(text: string, start: number, end: number): boolean {
  for (let index = start; index < end; index += 1) {
    const char = text.charCodeAt(index);
    if (char === BACKSLASH || char < SPACE) return true;
  }
  return false;
}

/** The index just past the closing quote of the string starting at `start`; -1 when it does not close. */
function stringEnd(text: string, start: number): number {
  for (let from = start + 1; ;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    // A quote after an odd number of backslashes is escaped.
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === BACKSLASH) slashes += 1;
    if (slashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

function match(pattern: RegExp, text: string, position: number): string | undefined {
  pattern.lastIndex = position;
  return pattern.exec(text)?.[0];
}

function code(char: string): number {
  return char.charCodeAt(0);
}
