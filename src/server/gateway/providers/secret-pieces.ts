import { REDACTED } from '../../../shared/secret-shapes.js';

/**
 * The shortest run of a known secret taken for that secret. Providers echo what they were sent cut
 * short (`sk-upstream-openai-0123…`), base64-encoded (a Basic header) or percent-encoded (a URL):
 * none of those is the exact key, and a prefix of 26 of its 32 characters leaves 6 to guess.
 * Twelve characters of a random key are already more than anyone can guess.
 */
const MIN_PIECE = 12;

/** Runs of characters keys and their encodings are written with. */
const RUN = /[A-Za-z0-9+/=_%.~-]{12,}/g;

/** `secret` as it may be written: plain, base64 and base64url. */
function writtenForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [secret, bytes.toString('base64').replace(/=+$/, ''), bytes.toString('base64url')];
}

/** Whether `run` holds MIN_PIECE characters in a row of `form`. */
function sharesPiece(run: string, form: string): boolean {
  if (run.length < MIN_PIECE || form.length < MIN_PIECE) return false;
  for (let start = 0; start + MIN_PIECE <= form.length; start += 1)
    if (run.includes(form.slice(start, start + MIN_PIECE))) return true;
  return false;
}

function percentDecoded(run: string): string {
  if (!run.includes('%')) return run;
  try {
    return decodeURIComponent(run);
  } catch {
    return run;
  }
}

/** `text` with every run that holds a piece of one of `secrets` (or of its encodings) replaced by {@link REDACTED}. */
export function redactSecretPieces(text: string, secrets: readonly string[]): string {
  const forms = secrets.filter((secret) => secret.length >= MIN_PIECE).flatMap(writtenForms);
  if (forms.length === 0) return text;
  return text.replace(RUN, (run) => {
    const decoded = percentDecoded(run);
    return forms.some((form) => sharesPiece(run, form) || sharesPiece(decoded, form)) ? REDACTED : run;
  });
}
