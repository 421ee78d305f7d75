/**
 * Characters a spreadsheet reads as the start of a formula (OWASP's CSV injection list), at the start
 * of a value or after a `;`: clients name their models and owners their keys, so `=HYPERLINK(...)` must
 * open as text, not run. Spreadsheets of locales whose list separator is `;` split a file on it, so
 * `x;=cmd|...` would start a cell there with the formula.
 */
const FORMULA_START = /(^|;)([=+\-@\t\r])/g;

/**
 * One RFC 4180 field: quoted when it holds a comma, a semicolon, a quote or a line break (a quoted
 * field stays one cell where `;` separates them too); each formula start gets a leading `'`.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const text = value.replace(FORMULA_START, "$1'$2");
  return /[",;\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record with its CRLF line end, as RFC 4180 writes it. */
export function csvLine(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
