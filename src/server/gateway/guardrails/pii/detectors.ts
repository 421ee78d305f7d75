import { isIPv6 } from 'node:net';
import type { PiiEntityType } from '../../../../shared/guardrails-api.js';
import { IBAN_LENGTHS, ibanValid, luhnValid, spanishDniValid } from './checksums.js';
import { LABELLED_SECRET, URL_PASSWORD } from './labelled-secrets.js';

/**
 * One detector: a global regular expression compiled once at module load, a cheap test that lets a
 * text without the telltale character skip the scan, and a check of each match (checksums, lengths)
 * that returns how many characters of the match are the entity (0: not one).
 */
export interface Detector {
  readonly type: PiiEntityType;
  readonly regex: RegExp;
  readonly hint: (text: string) => boolean;
  readonly accept: (match: RegExpExecArray) => number;
  /** The entity is the end of the match (a value after its label), not its start: the label stays. */
  readonly valueAtEnd?: boolean;
}

const hasDigit = (text: string): boolean => DIGIT.test(text);
const DIGIT = /\d/;
const whole = (match: RegExpExecArray): number => match[0].length;

const digitsOf = (text: string): string => text.replace(NON_DIGITS, '');
const NON_DIGITS = /\D/g;

/**
 * Restored values go back into JSON text (answers, streamed tool-call arguments) as they are, so no
 * restorable pattern may match a quote, a backslash or a control character; secrets (PEM blocks hold
 * newlines) are never restored.
 */
const EMAIL = emailPattern();

/**
 * Addresses in the Latin, Greek and Cyrillic scripts (`josé@bücher.de`, a Cyrillic `а` among Latin
 * letters, fullwidth `ａｄａ＠ｅｘａｍｐｌｅ．ｃｏｍ`), with combining marks and invisible format characters
 * (a zero-width space) inside; other scripts are left out, since Chinese or Japanese text runs into
 * an address without a space and would be swallowed with it. A match starts only where a run of
 * address characters starts: tried from every position of a long run that is no address, the scan
 * took time growing with the square of the run (two seconds for 40,000 characters and an `@`).
 */
function emailPattern(): RegExp {
  const letter = String.raw`\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}`;
  const start = String.raw`${letter}\p{Nd}`;
  const localChar = String.raw`${start}\p{M}._%+\-`;
  // Invisible characters inside an address, never at its ends (a mark of direction often follows one
  // in right-to-left text). The test of the first character comes before the look back, so that a
  // long run of invisible characters is not looked back over from each of its positions.
  const local = String.raw`[${localChar}](?<![${localChar}]\p{Cf}*[${localChar}])[${localChar}\p{Cf}]*`;
  const label = String.raw`[${start}](?:[${start}\p{M}\p{Cf}\-]{0,61}[${start}\p{M}])?`;
  const topLevel = String.raw`[${letter}](?:\p{Cf}*[${letter}\p{M}]){1,23}(?![${start}\p{M}\-])`;
  return new RegExp(String.raw`${local}[@＠]${label}(?:[.．]${label})*[.．]${topLevel}`, 'gu');
}

// Cards: four-digit groups with one consistent separator, Amex's 4-6-5, or an unbroken run; not the
// digits of a hex number (`0x4111111111111111`) or of an identifier joined by `_` (`key_4111…`).
// Digits run into letters (`Visa4111…`, `ORD4111…`) are still read: a privacy filter errs towards
// masking, and the Luhn check already leaves most order ids and hashes alone.
const CARD =
  /(?<![\d.-]|0[xX]|_)(?:\d{4}([ -])\d{4}\1\d{4}\1\d{1,7}|\d{4}([ -])\d{6}\2\d{4,5}|\d{13,19})(?![\d_]|[.-]\d)/g;

// Country code, check digits, then the account in groups of up to four (printed) or unbroken.
const IBAN = /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}/g;

// Not a four-part version number after its word (`version 4.0.0.0`, `"version": "1.2.3.4"`,
// `build 10.4.2.1`); glued to a word (`v1.2.3.4`), any number is left alone. Short words (`v`, `ver`)
// do not count: `"v": "10.0.0.1"` is as likely an address.
const IPV4 =
  /(?<![\w.])(?<!\b(?:[Vv]ersion|VERSION|[Bb]uild|BUILD)[\s:="']{1,4})(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?!\w|\.\d)/g;

// Candidates only: node:net decides what is an IPv6 address. Not a slice of an indexed name (`a[::2]`),
// while `[::1]` in a URL is one.
const IPV6 =
  /(?<![\w:.])(?<![\w\])]\[)(?:[0-9A-Fa-f]{0,4}:){2,7}(?:(?:\d{1,3}\.){3}\d{1,3}|[0-9A-Fa-f]{0,4})(?![\w:]|\.\d)/g;

// International (+CC ...), bracketed area codes, US 555-123-4567 with or without the leading 1
// (`1-800-555-0199`, `1 (800) 555-0199`, `1.800.555.0199`), and trunk-prefixed national numbers.
// Not a group inside a longer run of digit groups (an account number, a mistyped IBAN). Every
// alternative is of bounded length with no nested repetition, so each start costs a bounded scan.
const PHONE =
  /(?<![\w+.-]|\d )(?:1[ .-](?:\d{3}([.-])\d{3}\1\d{4}|\d{3} \d{3} \d{4})|1[ .-]?\(\d{3}\)[ .-]?\d{3}[ .-]\d{4}|\+\d{1,3}[ .-]?(?:\(\d{1,4}\)[ .-]?)?\d{1,4}(?:[ .-]?\d{2,4}){1,4}|\(\d{2,4}\)[ .-]?\d{3,4}[ .-]?\d{3,4}|\d{3}([.-])\d{3}\2\d{4}|\d{3} \d{3} \d{4}|0\d{2,4}[ .-]\d{3,4}[ .-]?\d{3,4})(?!\w|[ .-]\d)/g;

// US SSN (not 000, 666 or 9xx areas), UK NINO, Canadian SIN (Luhn), Spanish DNI (check letter), Italian codice fiscale.
const NATIONAL_ID = new RegExp(
  [
    String.raw`(?<ssn>(?<![\w-])(?!000|666|9\d\d)\d{3}(?<ssnSep>[- ])(?!00)\d{2}\k<ssnSep>(?!0000)\d{4}(?![\w-]))`,
    String.raw`(?<nino>\b(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b)`,
    String.raw`(?<sin>(?<![\w-])\d{3}(?<sinSep>[- ])\d{3}\k<sinSep>\d{3}(?![\w-]))`,
    String.raw`(?<dni>\b(?<dniDigits>\d{8})-?(?<dniLetter>[A-Z])\b)`,
    String.raw`(?<cf>\b[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z]\b)`,
  ].join('|'),
  'g',
);

// Provider and cloud keys, this gateway's own keys, PEM private keys (to the end of the text when cut off), JWTs.
const SECRET = new RegExp(
  [
    String.raw`\bsk-[A-Za-z0-9_-]{20,}`,
    String.raw`\bgk-[A-Za-z0-9_-]{20,}`,
    String.raw`\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b`,
    String.raw`\bAIza[0-9A-Za-z_-]{35}`,
    String.raw`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})`,
    String.raw`\bxox[abposr]-[A-Za-z0-9-]{10,}`,
    String.raw`\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}`,
    String.raw`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)`,
    String.raw`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`,
  ].join('|'),
  'g',
);
const SECRET_HINT = /sk-|gk-|AKIA|ASIA|ABIA|ACCA|AIza|gh[pousr]_|github_pat_|xox|k_live_|k_test_|PRIVATE KEY|eyJ/;

/** The IBAN a match starts with: its country's length of letters and digits, mod-97 checked. */
function acceptIban(match: RegExpExecArray): number {
  const text = match[0];
  const expected = IBAN_LENGTHS.get(text.slice(0, 2));
  if (expected === undefined) return 0;
  let compact = '';
  let end = 0;
  while (end < text.length && compact.length < expected) {
    if (text[end] !== ' ') compact += text[end];
    end += 1;
  }
  if (compact.length !== expected || !ibanValid(compact)) return 0;
  // The account must end here, not run on into more letters or digits.
  const next = match.input.charCodeAt(match.index + end);
  return isAlphanumeric(next) ? 0 : end;
}

function isAlphanumeric(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function acceptNationalId(match: RegExpExecArray): number {
  const groups = match.groups!;
  if (groups.sin !== undefined) return luhnValid(digitsOf(groups.sin)) ? groups.sin.length : 0;
  if (groups.dni !== undefined) return spanishDniValid(groups.dniDigits!, groups.dniLetter!) ? groups.dni.length : 0;
  return match[0].length;
}

function acceptPhone(match: RegExpExecArray): number {
  const digits = digitsOf(match[0]).length;
  return digits >= 7 && digits <= 15 ? match[0].length : 0;
}

/** Card networks' numbers start with 2 to 6 (Mastercard, Amex and Diners, Visa, Mastercard, Discover and UnionPay). */
function acceptCard(match: RegExpExecArray): number {
  const digits = digitsOf(match[0]);
  const first = digits.charCodeAt(0);
  if (first < 50 || first > 54) return 0;
  return digits.length >= 13 && digits.length <= 19 && luhnValid(digits) ? match[0].length : 0;
}

/**
 * An IPv6 address as node:net reads it. One of two groups written in letters alone (`a::b`, Rust's
 * `Add::add`) is taken for a name, not an address: real ones hold a digit, or more groups.
 */
function acceptIpv6(match: RegExpExecArray): number {
  const text = match[0];
  if (text.length < 3 || !isIPv6(text)) return 0;
  const groups = text.split(':').filter((group) => group !== '').length;
  return DIGIT.test(text) || groups >= 3 ? text.length : 0;
}

/**
 * Every detector, in priority order: where two matches overlap, the earlier detector's wins (a card
 * number is not also a phone number, an IP address not also a phone number).
 */
export const DETECTORS: readonly Detector[] = [
  { type: 'secret', regex: SECRET, hint: (text) => SECRET_HINT.test(text), accept: whole },
  URL_PASSWORD,
  LABELLED_SECRET,
  { type: 'email', regex: EMAIL, hint: (text) => text.includes('@') || text.includes('＠'), accept: whole },
  { type: 'iban', regex: IBAN, hint: hasDigit, accept: acceptIban },
  { type: 'credit_card', regex: CARD, hint: hasDigit, accept: acceptCard },
  { type: 'ip_address', regex: IPV4, hint: (text) => text.includes('.'), accept: whole },
  { type: 'ip_address', regex: IPV6, hint: (text) => text.includes(':'), accept: acceptIpv6 },
  { type: 'national_id', regex: NATIONAL_ID, hint: hasDigit, accept: acceptNationalId },
  { type: 'phone', regex: PHONE, hint: hasDigit, accept: acceptPhone },
];

/** One entity found in a text: `[start, end)` and its type. */
export interface Found {
  readonly type: PiiEntityType;
  readonly start: number;
  readonly end: number;
}

/**
 * The entities of `types` in a text, in order, none overlapping. Detectors share their (global)
 * regular expressions: each scan resets `lastIndex`, and nothing runs between a scan's steps.
 */
export function findEntities(text: string, detectors: readonly Detector[]): Found[] {
  let found: Found[] | undefined;
  for (const detector of detectors) {
    if (!detector.hint(text)) continue;
    const regex = detector.regex;
    regex.lastIndex = 0;
    for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
      const length = detector.accept(match);
      if (length === 0) {
        // Try again one character on: a rejected long match may hide a valid shorter one inside. Not
        // so a value after its label (a stand-in, `${DB_PASSWORD}`): read again from each label in it,
        // a long one would cost the square of its length.
        regex.lastIndex = detector.valueAtEnd ? match.index + match[0].length : match.index + 1;
        continue;
      }
      const start = detector.valueAtEnd ? match.index + match[0].length - length : match.index;
      const entity = { type: detector.type, start, end: start + length };
      if (found === undefined) found = [entity];
      else if (!found.some((taken) => taken.start < entity.end && entity.start < taken.end)) found.push(entity);
      regex.lastIndex = entity.end;
    }
  }
  if (found === undefined) return NONE;
  return found.length > 1 ? found.sort((a, b) => a.start - b.start) : found;
}

const NONE: Found[] = [];

/** The detectors of the given types, in priority order. */
export function detectorsFor(types: ReadonlySet<PiiEntityType>): readonly Detector[] {
  return DETECTORS.filter((detector) => types.has(detector.type));
}
