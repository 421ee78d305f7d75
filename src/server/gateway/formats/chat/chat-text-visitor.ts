import {
  visitField,
  visitPassedThrough,
  type TextLocation,
  type TextVisitor,
  type VisitOptions,
} from '../text-visitor.js';
import type { ChatBody } from './chat-schema.js';

type Mutable = Record<string, unknown>;

/** Visits every text of a chat completions request (system, user, assistant and tool messages), mutably. */
export function visitChatRequestText(body: ChatBody, visitor: TextVisitor, options: VisitOptions = {}): void {
  body.messages.forEach((message, messageIndex) => {
    const kind: TextLocation['kind'] =
      message.role === 'system' || message.role === 'developer'
        ? 'system'
        : message.role === 'tool' || message.role === 'function'
          ? 'tool_result'
          : 'message';
    const where = (path: string): TextLocation => ({
      kind,
      role: message.role,
      messageIndex,
      path: `messages[${messageIndex}].${path}`,
    });
    const holder = message as Mutable;
    visitContent(holder, 'content', visitor, where, options.passedThrough === true);
    if (message.role === 'assistant' && typeof message.refusal === 'string')
      visitField(holder, 'refusal', visitor, where('refusal'));
    if (options.toolArguments && message.role === 'assistant' && Array.isArray(message.tool_calls)) {
      message.tool_calls.forEach((call, index) => {
        // A custom tool's call holds free-form text where a function call holds JSON arguments.
        const custom = call.type === 'custom';
        visitField((custom ? call.custom : call.function) as Mutable, custom ? 'input' : 'arguments', visitor, {
          kind: 'tool_arguments',
          role: message.role,
          messageIndex,
          path: `messages[${messageIndex}].tool_calls[${index}].${custom ? 'custom.input' : 'function.arguments'}`,
        });
      });
    }
    // The legacy form of a tool call (`functions`), still forwarded as it is to OpenAI-compatible servers.
    const legacy = holder.function_call as Mutable | null | undefined;
    if (options.toolArguments && message.role === 'assistant' && typeof legacy?.arguments === 'string')
      visitField(legacy, 'arguments', visitor, {
        kind: 'tool_arguments',
        role: message.role,
        messageIndex,
        path: `messages[${messageIndex}].function_call.arguments`,
      });
  });
  // A predicted output (the text the answer is expected to repeat, such as a file being edited).
  if (options.passedThrough && (body as Mutable).prediction != null)
    visitPassedThrough(body as Mutable, 'prediction', visitor, {
      kind: 'passed',
      role: 'assistant',
      messageIndex: -1,
      path: 'prediction',
    });
}

/** Visits the answer texts of a chat completion (`choices[].message.content`), mutably. */
export function visitChatResponseText(body: { choices?: unknown }, visitor: TextVisitor): void {
  if (!Array.isArray(body.choices)) return;
  body.choices.forEach((choice: Mutable, index) => {
    const message = choice?.message as Mutable | undefined;
    if (message && typeof message.content === 'string') {
      visitField(message, 'content', visitor, {
        kind: 'answer',
        role: 'assistant',
        messageIndex: -1,
        path: `choices[${index}].message.content`,
      });
    }
  });
}

/**
 * A message's content: its text and refusal parts, and (`passed`) the strings of the other parts an
 * upstream receives as sent, such as a file part's `filename` (encoded data and addresses are not read).
 */
function visitContent(
  holder: Mutable,
  key: string,
  visitor: TextVisitor,
  where: (path: string) => TextLocation,
  passed = false,
): void {
  const content = holder[key];
  if (typeof content === 'string') {
    visitField(holder, key, visitor, where(key));
    return;
  }
  if (!Array.isArray(content)) return;
  content.forEach((part: Mutable, index) => {
    if (part.type === 'text' && typeof part.text === 'string')
      visitField(part, 'text', visitor, where(`${key}[${index}].text`));
    else if (part.type === 'refusal' && typeof part.refusal === 'string')
      visitField(part, 'refusal', visitor, where(`${key}[${index}].refusal`));
    else if (passed && part.type !== 'image_url')
      visitPassedThrough(content, index, visitor, { ...where(`${key}[${index}]`), kind: 'passed' });
  });
}
