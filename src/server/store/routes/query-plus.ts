/**
 * The raw value of query parameter `name` decoded with its literal `+` kept as `+`; undefined when the
 * parameter has no literal `+` (nearly every request), so the form-decoded value is the only reading.
 */
export function plusReadingOf(url: string, name: string): string | undefined {
  const start = url.indexOf('?');
  if (start === -1 || !url.includes('+', start)) return undefined;
  for (const pair of url.slice(start + 1).split('&')) {
    const equals = pair.indexOf('=');
    if (equals === -1 || !pair.includes('+', equals) || formDecoded(pair.slice(0, equals)) !== name) continue;
    try {
      return decodeURIComponent(pair.slice(equals + 1));
    } catch {
      // An escape that does not decode is refused before the route runs (queryEscapeProblem).
      return undefined;
    }
  }
  return undefined;
}

function formDecoded(component: string): string {
  try {
    return decodeURIComponent(component.replaceAll('+', ' '));
  } catch {
    return component;
  }
}
