/** Any character outside ASCII: only such a text can read differently once normalised. */
const NON_ASCII = /[\u0080-\uffff]/;
/** Invisible format characters (zero-width space and joiners, soft hyphen, bidirectional marks). */
const FORMAT_CHARACTERS = /\p{Cf}/gu;

/**
 * The text as a reader takes it, for the content policy: compatibility forms folded (NFKC: fullwidth
 * `ｌａｕｎｃｈ` is `launch`, ligatures are their letters) and invisible format characters removed
 * (`laun\u200Bch` is `launch`), or undefined when that changes nothing. A model reads through both,
 * so a blocked pattern must too. Pure ASCII text is returned as undefined at once.
 */
export function normalisedForPolicy(text: string): string | undefined {
  if (!NON_ASCII.test(text)) return undefined;
  const normalised = text.normalize('NFKC').replace(FORMAT_CHARACTERS, '');
  return normalised === text ? undefined : normalised;
}
