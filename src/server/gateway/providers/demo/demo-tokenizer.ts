import type { IrPart, IrRequest } from '../../formats/ir.js';

/**
 * The demo model's tokenizer: a token is one word with the whitespace before it, so the streamed
 * deltas are exactly the tokens counted.
 */

/** The tokens of a text. */
export function demoTokens(text: string): string[] {
  return text.match(/\s*\S+/g) ?? [];
}

/** Token count of a text. */
export function countDemoTokens(text: string): number {
  let count = 0;
  for (const _ of text.matchAll(/\S+/g)) count += 1;
  return count;
}

/** Prompt tokens of a request: every text the model reads, tool definitions included. */
export function countDemoPromptTokens(request: IrRequest): number {
  let count = 0;
  for (const text of request.system) count += countDemoTokens(text);
  for (const message of request.messages) for (const part of message.content) count += partTokens(part);
  for (const tool of request.tools ?? [])
    count += countDemoTokens(`${tool.name} ${tool.description ?? ''} ${JSON.stringify(tool.parameters)}`);
  return count;
}

function partTokens(part: IrPart): number {
  switch (part.type) {
    case 'text':
      return countDemoTokens(part.text);
    case 'image':
      return 1;
    case 'tool_call':
      return countDemoTokens(`${part.name} ${part.arguments}`);
    case 'tool_result':
      return part.content.reduce((sum, inner) => sum + partTokens(inner), 0);
  }
}
