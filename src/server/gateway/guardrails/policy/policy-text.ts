/** Any character outside ASCII: only such a text can read differently once normalised. */
const NON_ASCII = /[\u0080-\uffff]/;
/** Invisible format characters (zero-width space and joiners, soft hyphen, bidirectional marks). */
const FORMAT_CHARACTERS = /\p{Cf}/gu;
/** Letters that draw nothing (the Hangul fillers), put inside a word to break it up unseen. */
const BLANK_LETTERS = /[\u115F\u1160\u3164\uFFA0]/gu;
/** The braille blank: drawn as a space. */
const BRAILLE_BLANK = /\u2800/gu;
/**
 * Marks drawn on the letter before them (a combining accent, `lau\u0301nch`) or on nothing at all
 * (the combining grapheme joiner, variation selectors).
 */
const MARKS = /\p{Mn}/gu;

/**
 * Cyrillic, Greek and Latin-extension letters drawn like a Latin letter in common fonts (from
 * Unicode's confusables, only those a reader cannot tell apart), each above the Latin letter it reads
 * as: Cyrillic small and capital, Greek small and capital, then Latin letters NFKC leaves alone, and
 * the small capitals (`ʟᴀᴜɴᴄʜ`).
 */
const LOOK_ALIKE_LETTERS =
  'аеорсухіјѕһԁԛԝӏ' + 'АВЕКМНОРСТХУІЈЅԀԚԜ' + 'ονικα' + 'ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ' + 'ɑɡıȷ' + 'ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢ';
const LATIN_LETTERS =
  'aeopcyxijshdqwl' + 'ABEKMHOPCTXYIJSDQW' + 'ovika' + 'ABEZHIKMNOPTYX' + 'agij' + 'abcdefghijklmnoprstuvwyz';
const LOOK_ALIKES = new Map([...LOOK_ALIKE_LETTERS].map((letter, index) => [letter, LATIN_LETTERS[index]!]));
const LOOK_ALIKE = new RegExp(`[${LOOK_ALIKE_LETTERS}]`, 'gu');

/**
 * The text as a reader takes it, for the content policy, in up to two readings (none when it reads as
 * written; pure ASCII text returns none at once):
 * - compatibility forms folded (NFKC: fullwidth `ｌａｕｎｃｈ` is `launch`, ligatures are their
 *   letters), invisible format characters and blank letters removed (`laun\u200Bch` and
 *   `laun\u3164ch` are `launch`) and the braille blank read as a space;
 * - that reading with marks removed (`lau\u0301nch` is `launch`) and look-alike letters of other
 *   scripts read as the Latin ones they are drawn like (a Cyrillic `а` in `lаunch`), kept apart so a
 *   pattern written with accents, or in Cyrillic or Greek, still matches the first reading.
 * A model reads through all of these, so a blocked pattern must too.
 */
export function readingsForPolicy(text: string): string[] {
  if (!NON_ASCII.test(text)) return [];
  const normalised = text
    .normalize('NFKC')
    .replace(FORMAT_CHARACTERS, '')
    .replace(BLANK_LETTERS, '')
    .replace(BRAILLE_BLANK, ' ');
  const readings = normalised === text ? [] : [normalised];
  const latin = normalised
    .normalize('NFD')
    .replace(MARKS, '')
    .normalize('NFC')
    .replace(LOOK_ALIKE, (letter) => LOOK_ALIKES.get(letter)!);
  if (latin !== normalised) readings.push(latin);
  return readings;
}
