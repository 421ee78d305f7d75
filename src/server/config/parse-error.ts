/**
 * Parse errors of a configuration file that say where, never what: the parsers quote the text around
 * the problem, and that text is often a provider key or a token.
 */

/** 1-based line and column of `offset` in `text`. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

/** Whether `text` is a JSON text cut short (valid so far) rather than one already wrong. */
function validSoFar(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch (error) {
    // At the end of a cut text V8 says so, or names a position just past the last character.
    const message = (error as Error).message;
    const position = /at position (\d+)/.exec(message)?.[1];
    return /Unexpected end of JSON input/.test(message) || (position !== undefined && Number(position) >= text.length);
  }
}

/**
 * Where a JSON text goes wrong: the shortest start of it that is no longer valid so far ends at the
 * offending character (Node's messages give no position for most errors, and quote the text).
 */
export function jsonProblem(text: string): string {
  let low = 0;
  let high = text.length;
  if (validSoFar(text)) return 'the file ends before the JSON is complete';
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (validSoFar(text.slice(0, middle + 1))) low = middle + 1;
    else high = middle;
  }
  // A bare word (`tru`, an unquoted name) is noticed only at the character after it: point at the word.
  let start = low;
  while (start > 0 && /[\w.+-]/.test(text[start - 1]!)) start -= 1;
  if (start < low) {
    const { line, column } = lineAndColumn(text, start);
    return `not valid JSON at line ${line}, column ${column}: a value must be true, false, null, a number or a "quoted string"`;
  }
  const { line, column } = lineAndColumn(text, low);
  const found = text[low]!;
  const what = /^[{}[\],:"]$/.test(found) ? `'${found}'` : 'this character';
  return `not valid JSON at line ${line}, column ${column}: ${what} is not expected there`;
}

/** The YAML parser's own words for the problem and its position, without the excerpt it adds. */
export function yamlProblem(error: Error): string {
  const first = error.message.split('\n')[0]!.replace(/:$/, '');
  return first;
}
