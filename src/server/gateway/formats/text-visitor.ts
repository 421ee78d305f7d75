import { visitJsonText } from './json-text-visit.js';

/**
 * Text visitors walk every user-visible natural-language text field of a request or answer, so that
 * PII scrubbing, content policy and RAG read and rewrite text without knowing the format. Tool
 * definitions are never visited; tool-call arguments (JSON, not prose) only when asked for
 * (`{ toolArguments: true }`: PII scrubbing and the content policy must see every text a request carries).
 */

/** Where a visited text sits. */
export interface TextLocation {
  /**
   * `system` prompt, a conversation `message`, a `tool_result` sent back, the model's `answer`, the
   * arguments of a tool call (JSON text, or a string inside a Messages `tool_use` input), an
   * embeddings `input`, or a string of a part the gateway forwards without reading (`passed`).
   */
  readonly kind: 'system' | 'message' | 'tool_result' | 'answer' | 'tool_arguments' | 'input' | 'passed';
  /** Role of the message holding the text (`system` for system prompts). */
  readonly role: string;
  /** Index of the message in `messages` (-1 for a top-level system prompt or an answer). */
  readonly messageIndex: number;
  /** JSON path of the field, e.g. `messages[2].content[0].text`. */
  readonly path: string;
}

/** What a request visitor walks besides prose. */
export interface VisitOptions {
  /** Also tool-call arguments (chat `tool_calls`, Messages `tool_use` input, Responses `function_call`). */
  readonly toolArguments?: boolean;
  /**
   * Also every string of what the schemas let through without reading it, as a native upstream receives
   * it: block and item types the visitor does not know (server and MCP tool calls and results, custom
   * tool calls, file names), citations, a chat `prediction`, Responses `prompt` variables. The answers
   * carry such parts with the originals restored, so a client sends them back with the next turn.
   */
  readonly passedThrough?: boolean;
}

/** Called once per text field; returning a string replaces the field's text in place. */
export type TextVisitor = (text: string, where: TextLocation) => string | undefined | void;

/**
 * Calls the visitor on `holder[key]` (a string) and stores its replacement, if any. A tool call's
 * arguments and a tool's result are JSON, whose escapes (`ada\u0040example.com`, `launch\u0020codes`)
 * hide a value from a scan of the text as written while the model reads them decoded (and so does a
 * translation, which turns arguments into an object): such a text is visited token by token, decoded
 * ({@link visitJsonText}); one that is not JSON is visited as written.
 */
export function visitField(
  holder: Record<string, unknown>,
  key: string,
  visitor: TextVisitor,
  where: TextLocation,
): void {
  const text = holder[key] as string;
  if ((where.kind === 'tool_arguments' || where.kind === 'tool_result') && text.includes('\\')) {
    const visited = visitJsonText(text, visitor, where);
    if (visited !== null) {
      if (visited !== text) holder[key] = visited;
      return;
    }
  }
  const replaced = visitor(text, where);
  if (typeof replaced === 'string') holder[key] = replaced;
}

/**
 * Visits every string inside a JSON value held at `holder[key]` (a Messages `tool_use` input), in
 * place, and what else of it the model reads as text: its object keys (`{"jane@example.com": ...}`)
 * and numbers (`{"card": 4111111111111111}`), which chat and Responses carry inside their arguments'
 * JSON text. A replaced key renames its member; a replaced number becomes the replacing string.
 */
export function visitJsonStrings(
  holder: Record<string, unknown> | unknown[],
  key: string | number,
  visitor: TextVisitor,
  where: TextLocation,
): void {
  visitStrings(holder, key, visitor, where, false);
}

/**
 * Keys whose strings are not text for a reader: names and ids that must match elsewhere, signatures,
 * encoded or encrypted payloads, and addresses the provider fetches, which a placeholder would break.
 */
const OPAQUE_KEYS: ReadonlySet<string> = new Set([
  'type',
  'id',
  'name',
  'signature',
  'encrypted_content',
  'encrypted_index',
  'data',
  'file_data',
  'image_url',
  'file_url',
  'media_type',
]);

/**
 * The model's reasoning: signed or encrypted, and sent back as the model wrote it (its placeholders
 * are never restored either).
 */
export function isReasoningType(type: unknown): boolean {
  return type === 'thinking' || type === 'redacted_thinking' || type === 'reasoning';
}

/**
 * Visits every string inside a JSON value the gateway forwards without reading (`holder[key]`), in
 * place, except under opaque keys (ids, names, signatures, encoded data) and inside reasoning.
 */
export function visitPassedThrough(
  holder: Record<string, unknown> | unknown[],
  key: string | number,
  visitor: TextVisitor,
  where: TextLocation,
): void {
  visitStrings(holder, key, visitor, where, true);
}

/** The walk of both: every string, or (`passedThrough`) every one a reader could take for text. */
function visitStrings(
  holder: Record<string, unknown> | unknown[],
  key: string | number,
  visitor: TextVisitor,
  where: TextLocation,
  passedThrough: boolean,
): void {
  const value = (holder as Record<string | number, unknown>)[key];
  if (typeof value === 'string' || (!passedThrough && typeof value === 'number')) {
    const replaced = visitor(String(value), where);
    if (typeof replaced === 'string' && replaced !== String(value))
      (holder as Record<string | number, unknown>)[key] = replaced;
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1)
      visitStrings(value, i, visitor, { ...where, path: `${where.path}[${i}]` }, passedThrough);
  } else if (value !== null && typeof value === 'object') {
    if (passedThrough && isReasoningType((value as { type?: unknown }).type)) return;
    if (!passedThrough) visitKeys(holder, key, visitor, where);
    for (const name of Object.keys((holder as Record<string | number, unknown>)[key] as object)) {
      if (passedThrough && (OPAQUE_KEYS.has(name) || name.endsWith('_id'))) continue;
      visitStrings(
        (holder as Record<string | number, unknown>)[key] as Record<string, unknown>,
        name,
        visitor,
        { ...where, path: `${where.path}.${name}` },
        passedThrough,
      );
    }
  }
}

/**
 * Visits the keys of the object at `holder[key]`; when one is replaced, the object is rebuilt with
 * that member renamed (order kept) and put in its place.
 */
function visitKeys(
  holder: Record<string, unknown> | unknown[],
  key: string | number,
  visitor: TextVisitor,
  where: TextLocation,
): void {
  const object = (holder as Record<string | number, unknown>)[key] as Record<string, unknown>;
  let renamed: Array<[string, unknown]> | undefined;
  const names = Object.keys(object);
  for (let index = 0; index < names.length; index += 1) {
    const name = names[index]!;
    const replaced = visitor(name, { ...where, path: `${where.path}.${name}` });
    if (typeof replaced !== 'string' || replaced === name) continue;
    renamed ??= names.map((each) => [each, object[each]]);
    renamed[index]![0] = replaced;
  }
  if (renamed !== undefined) (holder as Record<string | number, unknown>)[key] = Object.fromEntries(renamed);
}
