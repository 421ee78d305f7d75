import type { Detector } from './detectors.js';

/**
 * Secrets known by their label rather than their shape, as configs and runbooks write them
 * (`aws_secret_access_key=…`, `password: …`, `"client_secret": "…"`), and the password of a URL's
 * userinfo (`postgres://admin:…@db:5432/prod`). Only the value is the entity: the label, the user
 * name and the host stay, so the model still reads what the line is about.
 *
 * Each pattern is anchored where it starts (a keyword, `://`), and every repetition that something
 * after it can fail is bounded or cannot run past the next anchor, so the scan stays linear in the
 * text's length (no nested repetition, no run tried from each of its positions).
 */

// The label's last word(s): the identifier must end with one of these (`DB_PASSWORD`, `x-api-key`),
// not go on (`password_hash`, `max_tokens`, `token_count`). Whatever comes before the keyword is kept
// and not matched, so a long identifier costs no more than a short one.
const KEYWORD = String.raw`(?:passw(?:or)?d|passphrase|secret(?:[_-]?access)?(?:[_-]?key)?|token|(?:api|access|private|encryption|signing|master)[_-]?key|apikey)(?![\w.-])`;
// A key quoted as in JSON or YAML (`"password": …`), then the assignment, on the same line.
const ASSIGNMENT = String.raw`["']?[ \t]*(?::=|=>|[:=])[ \t]*`;
// A quoted value up to its closing quote (bounded: an unclosed quote is given up 200 characters on),
// or a bare one up to what ends a value in a config line, a query string or a connection string.
const VALUE = String.raw`(?:"[^"\r\n]{1,200}(?=")|'[^'\r\n]{1,200}(?=')|\`[^\`\r\n]{1,200}(?=\`)|[^\s"'\`,;&<>()[\]{}=][^\s"'\`,;&<>]*)`;

const LABELLED = new RegExp(KEYWORD + ASSIGNMENT + VALUE, 'gi');

/**
 * `://`, a user name, `:`, and the password up to the `@` before the host (the password may hold a
 * `:`). Linear although the password's run is followed by a test that can fail (the shape the check
 * of user patterns refuses, not knowing this one's start): a match can start only at `://`, and
 * neither the user name nor the password runs past a `/`, so no character is read from two starts.
 */
const URL_USERINFO = /:\/\/[^\s/?#@:]*:[^\s/?#@]+(?=@[^\s@])/g;

// Not a value but a stand-in for one: `${DB_PASSWORD}`, `$DB_PASSWORD`, `{{ secret }}`, `%(pw)s`,
// `<password>`, `****`, `xxxx`, a placeholder of this gateway's, or a word that names a type or nothing.
const STAND_IN =
  /^(?:\$\{.*\}|\$\(.*\)|\$[A-Za-z_]\w*|\{\{.*\}\}|%\(\w+\)s|<.*>|\[[A-Z_]+_\d+\]|(.)\1*|null|none|nil|true|false|undefined|empty|string|str|required|optional|redacted|hidden|changeme|your[_-]?\w*)$/i;

/** Where the value starts in a labelled match: after the assignment, and after an opening quote. */
const VALUE_START = new RegExp(KEYWORD + ASSIGNMENT + `["'\`]?`, 'iy');

/**
 * The value of a labelled match, or 0: a stand-in is no secret, nor is a lower-case word that prose
 * goes on after (`Password: must be at least 12 characters`), nor a value too short to be one.
 */
function acceptLabelled(match: RegExpExecArray): number {
  VALUE_START.lastIndex = match.index;
  const start = VALUE_START.exec(match.input)![0].length;
  const value = match[0].slice(start);
  if (value.length < 4 || STAND_IN.test(value)) return 0;
  const quoted = start > 0 && `"'\``.includes(match[0][start - 1]!);
  if (
    !quoted &&
    LOWER_WORD.test(value) &&
    PROSE_GOES_ON.test(match.input.slice(match.index + match[0].length, match.index + match[0].length + 2))
  )
    return 0;
  return value.length;
}

const LOWER_WORD = /^[a-z]+$/;
const PROSE_GOES_ON = /^ [a-z]/;

/** The password of a URL's userinfo, unless it is a stand-in (`postgres://app:${PGPASSWORD}@db`). */
function acceptUserinfo(match: RegExpExecArray): number {
  const password = match[0].slice(match[0].indexOf(':', 3) + 1);
  return STAND_IN.test(password) ? 0 : password.length;
}

/**
 * The URL userinfo rule: before the e-mail detector, whose address would otherwise take the password
 * and the host (`S3cretPw@db.internal`) and leave the rest of the URL garbled.
 */
export const URL_PASSWORD: Detector = {
  type: 'secret',
  regex: URL_USERINFO,
  hint: (text) => text.includes('://'),
  accept: acceptUserinfo,
  valueAtEnd: true,
};

/** The keyword-anchored rule: a `password`, `secret`, `token` or `…_key` label with a value assigned. */
export const LABELLED_SECRET: Detector = {
  type: 'secret',
  regex: LABELLED,
  hint: (text) => text.includes('=') || text.includes(':'),
  accept: acceptLabelled,
  valueAtEnd: true,
};
