/**
 * A request that is valid in its own format but cannot be expressed in the provider's (an audio
 * part sent to a model without audio input, for example). Callers answer 400 invalid_request_error.
 */
export class TranslationError extends Error {
  /** The request field at fault, in OpenAI's notation (`tools[0]`); null when the fault is not one field. */
  readonly param: string | null;

  constructor(message: string, param: string | null = null) {
    super(message);
    this.name = 'TranslationError';
    this.param = param;
  }

  /** `<field>: <problem>`, with the field as the one at fault. */
  static at(field: string, problem: string): TranslationError {
    return new TranslationError(`${field}: ${problem}`, field);
  }
}

/** A refusal naming the client's `field` when the part at fault knows it, the problem alone otherwise. */
export function refusalAt(field: string | undefined, problem: string): TranslationError {
  return field === undefined ? new TranslationError(problem) : TranslationError.at(field, problem);
}

/**
 * A base64 `data:` URL (RFC 2397: `data:<media type>[;<name>=<value>]...;base64,<data>`, in any letter
 * case) as its media type, lower case, and its data; undefined for any other URL.
 */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]+)(?:;[^;,=]+=[^;,]*)*;base64,/i.exec(url);
  if (!match) return undefined;
  return { mediaType: match[1]!.toLowerCase(), data: url.slice(match[0].length) };
}

/** Parses tool-call argument text into the object Anthropic's `tool_use.input` needs. */
export function parseToolArguments(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (isObject(value)) return value;
  } catch {
    // Models occasionally emit broken JSON; keep the text rather than failing the whole turn.
  }
  return { _raw_arguments: text };
}

/** A plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
