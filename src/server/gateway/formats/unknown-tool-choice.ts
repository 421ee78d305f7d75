import type { IrRequest } from './ir.js';
import { TranslationError } from './translation-error.js';

/**
 * Refuses a translated request's `tool_choice` naming a tool the request does not offer (the
 * Responses format refuses it as it reads the request). Both providers refuse it, and their refusal
 * would reach the client as an upstream failure (502) rather than as its own mistake.
 */
export function refuseUnknownToolChoice(ir: IrRequest): void {
  const choice = ir.toolChoice;
  if (choice?.type !== 'tool') return;
  const names = (ir.tools ?? []).map((tool) => tool.name);
  if (names.length === 0)
    throw TranslationError.at('tool_choice', 'a tool must be chosen, but the request has no tools; send tools');
  if (names.includes(choice.name)) return;
  const offered = names.slice(0, 20).map((name) => JSON.stringify(name));
  throw TranslationError.at(
    'tool_choice',
    `no tool named ${JSON.stringify(choice.name.slice(0, 80))} in tools; name one of ${offered.join(', ')}${names.length > offered.length ? ', ...' : ''}`,
  );
}
