import type { IrRequest } from './ir.js';
import { TranslationError } from './translation-error.js';

/**
 * Refuses a translated request's `tool_choice` that no tool of the request can meet: one that must
 * choose a tool (`required`, Messages' `any`, a named tool) in a request without tools, or one naming
 * a tool the request does not offer (the Responses format refuses that as it reads the request).
 * OpenAI and Anthropic both refuse these; their refusal would reach the client as an upstream failure
 * (502) rather than as its own mistake, and a provider that ignored it would answer in text what the
 * client required to be a tool call. Every translated path (and the demo provider) applies this one rule.
 */
export function refuseUnknownToolChoice(ir: IrRequest): void {
  const choice = ir.toolChoice;
  if (choice?.type !== 'tool' && choice?.type !== 'required') return;
  const names = (ir.tools ?? []).map((tool) => tool.name);
  if (names.length === 0)
    throw TranslationError.at('tool_choice', 'a tool must be chosen, but the request has no tools; send tools');
  if (choice.type === 'required' || names.includes(choice.name)) return;
  const offered = names.slice(0, 20).map((name) => JSON.stringify(name));
  throw TranslationError.at(
    'tool_choice',
    `no tool named ${JSON.stringify(choice.name.slice(0, 80))} in tools; name one of ${offered.join(', ')}${names.length > offered.length ? ', ...' : ''}`,
  );
}
