/**
 * Text visitors walk every user-visible natural-language text field of a request or answer, so that
 * PII scrubbing, content policy and RAG read and rewrite text without knowing the format. Tool
 * definitions and tool-call arguments (JSON, not prose) are not visited.
 */

/** Where a visited text sits. */
export interface TextLocation {
  /** `system` prompt, a conversation `message`, a `tool_result` sent back, or the model's `answer`. */
  readonly kind: 'system' | 'message' | 'tool_result' | 'answer';
  /** Role of the message holding the text (`system` for system prompts). */
  readonly role: string;
  /** Index of the message in `messages` (-1 for a top-level system prompt or an answer). */
  readonly messageIndex: number;
  /** JSON path of the field, e.g. `messages[2].content[0].text`. */
  readonly path: string;
}

/** Called once per text field; returning a string replaces the field's text in place. */
export type TextVisitor = (text: string, where: TextLocation) => string | undefined | void;

/** Calls the visitor on `holder[key]` (a string) and stores its replacement, if any. */
export function visitField(
  holder: Record<string, unknown>,
  key: string,
  visitor: TextVisitor,
  where: TextLocation,
): void {
  const replaced = visitor(holder[key] as string, where);
  if (typeof replaced === 'string') holder[key] = replaced;
}
