/**
 * Whether a value given as an environment variable's NAME looks like a secret pasted there instead: a
 * long run of mixed-case letters and digits, as generated keys are (`sk_live_51Hb…`, `ghp_…`), where
 * variable names are written in capitals. Such a value is refused without being shown: names are
 * printed in messages and shown back by the admin API.
 */
export function looksLikeSecret(name: string): boolean {
  return name.length >= 20 && /[a-z]/.test(name) && /[A-Z]/.test(name) && /\d/.test(name);
}

/** The refusal of {@link looksLikeSecret}, which names no part of the value. */
export const SECRET_NOT_NAME =
  'looks like a key rather than the name of a variable (not shown): put the key in the variable, and its name here';
