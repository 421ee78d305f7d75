import {
  isReasoningType,
  visitField,
  visitPassedThrough,
  type TextLocation,
  type TextVisitor,
  type VisitOptions,
} from '../text-visitor.js';
import type { ResponsesBody } from './responses-schema.js';
import { inputItemPath } from './replayed-input.js';

type Mutable = Record<string, unknown>;

/**
 * Visits every text of a Responses request, mutably: `instructions`, a string `input`, and in input
 * items the text of messages (string content, `input_text`, `output_text` and `refusal` parts), function-call
 * outputs, (with `toolArguments`) function-call arguments, and (with `passedThrough`) the items and parts
 * of other types a native upstream is sent as they are, and `prompt` variables.
 */
export function visitResponsesRequestText(body: ResponsesBody, visitor: TextVisitor, options: VisitOptions = {}): void {
  const holder = body as Mutable;
  const passed = options.passedThrough === true;
  if (passed && holder.prompt != null)
    visitPassedThrough(holder, 'prompt', visitor, { kind: 'passed', role: 'user', messageIndex: -1, path: 'prompt' });
  if (typeof body.instructions === 'string')
    visitField(holder, 'instructions', visitor, {
      kind: 'system',
      role: 'system',
      messageIndex: -1,
      path: 'instructions',
    });
  if (typeof body.input === 'string') {
    visitField(holder, 'input', visitor, { kind: 'message', role: 'user', messageIndex: 0, path: 'input' });
    return;
  }
  body.input.forEach((item: Mutable, index) => {
    const type = item.type ?? 'message';
    const path = inputItemPath(body, index);
    if (type === 'message') {
      const role = String(item.role);
      const kind = role === 'system' || role === 'developer' ? 'system' : 'message';
      visitContent(item, 'content', visitor, { kind, role, messageIndex: index, path: `${path}.content` }, passed);
    } else if (type === 'function_call_output') {
      visitContent(
        item,
        'output',
        visitor,
        { kind: 'tool_result', role: 'tool', messageIndex: index, path: `${path}.output` },
        passed,
      );
    } else if (type === 'function_call') {
      if (options.toolArguments && typeof item.arguments === 'string')
        visitField(item, 'arguments', visitor, {
          kind: 'tool_arguments',
          role: 'assistant',
          messageIndex: index,
          path: `${path}.arguments`,
        });
    } else if (passed && !isReasoningType(type)) {
      visitPassedThrough(body.input as unknown[], index, visitor, {
        kind: 'passed',
        role: 'assistant',
        messageIndex: index,
        path,
      });
    }
  });
}

function visitContent(holder: Mutable, key: string, visitor: TextVisitor, where: TextLocation, passed: boolean): void {
  const content = holder[key];
  if (typeof content === 'string') {
    visitField(holder, key, visitor, where);
    return;
  }
  if (!Array.isArray(content)) return;
  content.forEach((part: Mutable, index) => {
    const path = `${where.path}[${index}]`;
    if ((part.type === 'input_text' || part.type === 'output_text') && typeof part.text === 'string') {
      visitField(part, 'text', visitor, { ...where, path: `${path}.text` });
      // An answer's annotations (cited titles, file names) come back with its text.
      if (passed && part.annotations != null)
        visitPassedThrough(part, 'annotations', visitor, { ...where, kind: 'passed', path: `${path}.annotations` });
    } else if (part.type === 'refusal' && typeof part.refusal === 'string')
      visitField(part, 'refusal', visitor, { ...where, path: `${path}.refusal` });
    else if (passed && part.type !== 'input_image')
      visitPassedThrough(content, index, visitor, { ...where, kind: 'passed', path });
  });
}
