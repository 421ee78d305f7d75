import {
  isReasoningType,
  visitField,
  visitJsonStrings,
  visitPassedThrough,
  type TextLocation,
  type TextVisitor,
  type VisitOptions,
} from '../text-visitor.js';
import type { MessagesBody } from './messages-schema.js';

type Mutable = Record<string, unknown>;

/** Visits every text of a Messages request (system prompt, turns, tool results), mutably. */
export function visitMessagesRequestText(body: MessagesBody, visitor: TextVisitor, options: VisitOptions = {}): void {
  const holder = body as Mutable;
  if (typeof body.system === 'string') {
    visitField(holder, 'system', visitor, { kind: 'system', role: 'system', messageIndex: -1, path: 'system' });
  } else if (Array.isArray(body.system)) {
    body.system.forEach((block, index) => {
      visitField(block, 'text', visitor, {
        kind: 'system',
        role: 'system',
        messageIndex: -1,
        path: `system[${index}].text`,
      });
    });
  }
  body.messages.forEach((message, messageIndex) => {
    const where = (kind: TextLocation['kind'], path: string): TextLocation => ({
      kind,
      role: message.role,
      messageIndex,
      path: `messages[${messageIndex}].${path}`,
    });
    visitBlocks(
      message as Mutable,
      'content',
      visitor,
      (path) => where('message', path),
      (path) => where('tool_result', path),
      options.passedThrough === true,
    );
    if (options.toolArguments && Array.isArray(message.content)) {
      message.content.forEach((block: Mutable, index) => {
        if (block.type === 'tool_use' && block.input !== null && typeof block.input === 'object')
          visitJsonStrings(block, 'input', visitor, where('tool_arguments', `content[${index}].input`));
      });
    }
  });
}

/** Visits the answer texts of a Messages answer (`content[].text`), mutably. */
export function visitMessagesResponseText(body: { content?: unknown }, visitor: TextVisitor): void {
  if (!Array.isArray(body.content)) return;
  body.content.forEach((block: Mutable, index) => {
    if (block?.type === 'text' && typeof block.text === 'string') {
      visitField(block, 'text', visitor, {
        kind: 'answer',
        role: 'assistant',
        messageIndex: -1,
        path: `content[${index}].text`,
      });
    }
  });
}

/** Block types read field by field above; every other one is forwarded as the client wrote it. */
const KNOWN_BLOCKS: ReadonlySet<unknown> = new Set([
  'text',
  'image',
  'document',
  'search_result',
  'tool_result',
  'tool_use',
]);

function visitBlocks(
  holder: Mutable,
  key: string,
  visitor: TextVisitor,
  where: (path: string) => TextLocation,
  whereResult: (path: string) => TextLocation,
  passed: boolean,
): void {
  const content = holder[key];
  if (typeof content === 'string') {
    visitField(holder, key, visitor, where(key));
    return;
  }
  if (!Array.isArray(content)) return;
  content.forEach((block: Mutable, index) => {
    const path = `${key}[${index}]`;
    if (block.type === 'text' && typeof block.text === 'string') {
      visitField(block, 'text', visitor, where(`${path}.text`));
      // An answer's citations quote the documents it read, and come back with the answer's text.
      if (passed && block.citations != null)
        visitPassedThrough(block, 'citations', visitor, { ...where(`${path}.citations`), kind: 'passed' });
    } else if (block.type === 'document') visitDocument(block, visitor, inner(where, path), passed);
    else if (block.type === 'search_result') {
      visitStrings(block, ['title', 'source'], visitor, inner(where, path));
      visitBlocks(block, 'content', visitor, inner(where, path), inner(where, path), passed);
    } else if (block.type === 'tool_result')
      visitBlocks(
        block,
        'content',
        visitor,
        (inner) => whereResult(`${path}.${inner}`),
        (inner) => whereResult(`${path}.${inner}`),
        passed,
      );
    else if (passed && !KNOWN_BLOCKS.has(block.type) && !isReasoningType(block.type))
      visitPassedThrough(content, index, visitor, { ...where(path), kind: 'passed' });
  });
}

/** The string fields `names` of a block, where present. */
function visitStrings(
  block: Mutable,
  names: readonly string[],
  visitor: TextVisitor,
  where: (path: string) => TextLocation,
): void {
  for (const name of names) if (typeof block[name] === 'string') visitField(block, name, visitor, where(name));
}

/**
 * A document's texts: its title and context, and its source when it is text (`{type: "text", data}`)
 * or content blocks (`{type: "content", content: [...]}`); base64 and URL sources hold no text to read.
 */
function visitDocument(
  block: Mutable,
  visitor: TextVisitor,
  where: (path: string) => TextLocation,
  passed: boolean,
): void {
  visitStrings(block, ['title', 'context'], visitor, where);
  const source: unknown = block.source;
  if (isTextSource(source)) visitField(source, 'data', visitor, where('source.data'));
  else if (isContentSource(source))
    visitBlocks(source, 'content', visitor, inner(where, 'source'), inner(where, 'source'), passed);
}

/** A document source made of content blocks (`{type: "content", content: [...]}`). */
function isContentSource(source: unknown): source is Mutable {
  return source !== null && typeof source === 'object' && (source as Mutable).type === 'content';
}

/** A plain-text document's source (`{type: "text", data}`): prose like any other text. */
function isTextSource(source: unknown): source is Mutable {
  return (
    source !== null &&
    typeof source === 'object' &&
    (source as Mutable).type === 'text' &&
    typeof (source as Mutable).data === 'string'
  );
}

/** Locations inside a block, relative to its path. */
function inner(where: (path: string) => TextLocation, path: string): (innerPath: string) => TextLocation {
  return (innerPath) => where(`${path}.${innerPath}`);
}
