import { visitPassedThrough, type TextVisitor } from '../../formats/text-visitor.js';
import type { Endpoint } from '../../pipeline/request-context.js';

/**
 * Request fields that describe tools and answer formats: the model reads their descriptions (and the
 * strings of their schemas) as it reads a prompt. Chat's legacy `functions` too; Responses keeps its
 * answer format under `text`.
 */
const DEFINITION_FIELDS: Readonly<Partial<Record<Endpoint, readonly string[]>>> = {
  chat: ['tools', 'functions', 'response_format'],
  messages: ['tools'],
  count_tokens: ['tools'],
  responses: ['tools', 'text'],
};

/**
 * Visits the strings of a request's tool definitions and answer-format schemas, names and types
 * excepted: what the content policy must read besides the request's texts, since a blocked request
 * written into a tool's description reaches the model all the same. Read only, never rewritten.
 */
export function visitToolDefinitionTexts(
  endpoint: Endpoint,
  body: Record<string, unknown>,
  visitor: TextVisitor,
): void {
  for (const field of DEFINITION_FIELDS[endpoint] ?? []) {
    if (body[field] == null) continue;
    visitPassedThrough(body, field, visitor, { kind: 'passed', role: 'system', messageIndex: -1, path: field });
  }
}
