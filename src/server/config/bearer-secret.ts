/** The shortest secret accepted from the environment or the file: the master key and every store token. */
export const MIN_SECRET_LENGTH = 16;

/**
 * Printable ASCII without the space: what one `Authorization: Bearer <secret>` value can carry (the
 * header's value ends at whitespace, and clients refuse control and non-Latin-1 characters).
 */
export const BEARER_SECRET_PATTERN = /^[\x21-\x7e]+$/;

/** What a bearer secret needs besides its length, as said in messages. */
export const BEARER_SECRET_RULE =
  'only printable ASCII without spaces, which is all an Authorization: Bearer header carries';

/**
 * Why a secret cannot be used as a bearer value (`holds 3 characters; the master key needs at least
 * 16, guessable otherwise`), or undefined: a secret no request can present would refuse every call.
 * Never the value: it is a secret, even a weak one.
 */
export function bearerSecretProblem(what: string, value: string): string | undefined {
  if (value.length < MIN_SECRET_LENGTH)
    return `holds ${value.length} characters; ${what} needs at least ${MIN_SECRET_LENGTH}, guessable otherwise`;
  if (!BEARER_SECRET_PATTERN.test(value))
    return `has a space or another character ${what} cannot hold: use ${BEARER_SECRET_RULE}`;
  return undefined;
}
