/** Quotes a value for a POSIX shell: single quotes, with embedded ones closed and escaped. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * A curl command replaying a request against the gateway. The key is left as an environment
 * variable: the UI never has (and must never print) a client's secret.
 */
export function toCurl(options: {
  readonly baseUrl: string;
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
}): string {
  const lines = [
    `curl -X ${options.method} ${shellQuote(new URL(options.path, options.baseUrl).toString())}`,
    `  -H "Authorization: Bearer $GATEHOUSE_API_KEY"`,
  ];
  if (options.body !== null && options.body !== undefined) {
    lines.push(`  -H "Content-Type: application/json"`);
    lines.push(`  -d ${shellQuote(typeof options.body === 'string' ? options.body : JSON.stringify(options.body))}`);
  }
  return lines.join(' \\\n');
}
