import { badRequest, type AppError } from './errors.js';

/**
 * The query string's first parameter whose percent escapes do not decode (`?checkpoint=%FF`), as a
 * 400 naming it; null when there is none. The query parser keeps such an escape as literal text, so
 * without this `%FF` would be looked up as a checkpoint named "%FF" (a legal name), where the same
 * escape in the path is refused.
 */
export function queryEscapeProblem(url: string): AppError | null {
  const start = url.indexOf('?');
  // Nearly every request: no query, or one without escapes.
  if (start === -1 || !url.includes('%', start)) return null;
  for (const pair of url.slice(start + 1).split('&')) {
    if (!pair.includes('%')) continue;
    const equals = pair.indexOf('=');
    const name = equals === -1 ? pair : pair.slice(0, equals);
    const nameDecodes = decodes(name);
    if (nameDecodes && (equals === -1 || decodes(pair.slice(equals + 1)))) continue;
    const shown = nameDecodes ? decodeURIComponent(name.replaceAll('+', ' ')) : name;
    return badRequest(
      `query parameter ${shown.length > 100 ? `${shown.slice(0, 100)}...` : shown} is not valid: a percent escape does not decode`,
    );
  }
  return null;
}

function decodes(component: string): boolean {
  try {
    decodeURIComponent(component.replaceAll('+', ' '));
    return true;
  } catch {
    return false;
  }
}
