import type { Config } from './schema.js';

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

/** Fewer different characters than this make a secret weak whatever its length (`passwordpassword` has 7). */
export const MIN_DISTINCT_SECRET_CHARACTERS = 8;

/**
 * Why a secret that is long enough is still easily guessed (a character or a short word repeated),
 * or undefined. A warning, not a refusal: setups that run with such a secret keep working. Never the value.
 */
export function weakSecretProblem(value: string): string | undefined {
  const distinct = new Set(value).size;
  if (value.length < MIN_SECRET_LENGTH || distinct >= MIN_DISTINCT_SECRET_CHARACTERS) return undefined;
  return `holds only ${distinct} different characters, so it is among the first a guesser tries; use a random value (openssl rand -base64 32)`;
}

/**
 * One warning per weak secret set for the master key and the store's tokens (PROXY_MASTER_KEY,
 * STORE_TOKEN, store.auth.tokens), each naming its variable or key, for the start and `--check`.
 */
export function weakSecretWarnings(config: Config, env: NodeJS.ProcessEnv): string[] {
  const sources: Array<readonly [where: string, value: string | undefined]> = [
    ['PROXY_MASTER_KEY', env.PROXY_MASTER_KEY],
    ['STORE_TOKEN', env.STORE_TOKEN],
    ...config.store.auth.tokens.map((entry, index): readonly [string, string | undefined] =>
      entry.token !== undefined
        ? [`store.auth.tokens[${index}].token`, entry.token]
        : [`store.auth.tokens[${index}].token_env (${entry.token_env})`, env[entry.token_env!]],
    ),
  ];
  const warnings: string[] = [];
  for (const [where, value] of sources) {
    const problem = value ? weakSecretProblem(value) : undefined;
    if (problem !== undefined) warnings.push(`${where} ${problem}`);
  }
  return warnings;
}
