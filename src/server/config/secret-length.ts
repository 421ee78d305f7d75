/** The shortest secret accepted from the environment or the file: the master key and every store token. */
export const MIN_SECRET_LENGTH = 16;

/**
 * Why a secret is too short to use (`holds 3 characters; the master key needs at least 16, guessable
 * otherwise`), or undefined. The length only: the value is a secret, even a weak one.
 */
export function shortSecretProblem(what: string, value: string): string | undefined {
  if (value.length >= MIN_SECRET_LENGTH) return undefined;
  return `holds ${value.length} characters; ${what} needs at least ${MIN_SECRET_LENGTH}, guessable otherwise`;
}
