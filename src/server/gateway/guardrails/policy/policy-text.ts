/** Any character outside ASCII: only such a text can read differently once normalised. */
const NON_ASCII = /[\u0080-\uffff]/;
/** Invisible format characters (zero-width space and joiners, soft hyphen, bidirectional marks). */
const FORMAT_CHARACTERS = /\p{Cf}/gu;

/**
 * Cyrillic, Greek and Latin-extension letters drawn like a Latin letter in common fonts (from
 * Unicode's confusables, only those a reader cannot tell apart), each above the Latin letter it reads
 * as: Cyrillic small and capital, Greek small and capital, then Latin letters NFKC leaves alone.
 */
const LOOK_ALIKE_LETTERS = 'аеорсухіјѕһԁԛԝӏ' + 'АВЕКМНОРСТХУІЈЅԀԚԜ' + 'ονικα' + 'ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ' + 'ɑɡıȷ';
const LATIN_LETTERS = 'aeopcyxijshdqwl' + 'ABEKMHOPCTXYIJSDQW' + 'ovika' + 'ABEZHIKMNOPTYX' + 'agij';
const LOOK_ALIKES = new Map([...LOOK_ALIKE_LETTERS].map((letter, index) => [letter, LATIN_LETTERS[index]!]));
const LOOK_ALIKE = new RegExp(`[${LOOK_ALIKE_LETTERS}]`, 'gu');

/**
 * The text as a reader takes it, for the content policy, in up to two readings (none when it reads as
 * written; pure ASCII text returns none at once):
 * - compatibility forms folded (NFKC: fullwidth `ｌａｕｎｃｈ` is `launch`, ligatures are their
 *   letters) and invisible format characters removed (`laun\u200Bch` is `launch`);
 * - that reading with look-alike letters of other scripts read as the Latin ones they are drawn like
 *   (a Cyrillic `а` in `lаunch`), kept apart so a pattern written in Cyrillic or Greek still matches
 *   the first reading.
 * A model reads through all of these, so a blocked pattern must too.
 */
export function readingsForPolicy(text: string): string[] {
  if (!NON_ASCII.test(text)) return [];
  const normalised = text.normalize('NFKC').replace(FORMAT_CHARACTERS, '');
  const readings = normalised === text ? [] : [normalised];
  const latin = normalised.replace(LOOK_ALIKE, (letter) => LOOK_ALIKES.get(letter)!);
  if (latin !== normalised) readings.push(latin);
  return readings;
}
