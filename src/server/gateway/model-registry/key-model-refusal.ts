/**
 * Why an API key limited to some models may not use one, worded alike wherever it is refused (a
 * request's 403, `GET /v1/models/{id}`'s 404): the name as the caller sent it, an alias's target, and
 * the models the key is limited to (the first ten).
 */
export function keyModelRefusal(
  keyId: string,
  requested: string,
  target: string | undefined,
  keyModels: ReadonlySet<string>,
): string {
  const alias = target === undefined || target === requested ? '' : `an alias of '${target}'; `;
  return `API key ${keyId} may not use model '${requested}' (${alias}the key is limited to ${listed([...keyModels])})`;
}

/** A few names for a message. */
function listed(names: readonly string[]): string {
  if (names.length === 0) return 'no models';
  return names.length > 10 ? `${names.slice(0, 10).join(', ')}, ...` : names.join(', ');
}
