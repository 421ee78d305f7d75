import { randomUUID } from 'node:crypto';

/**
 * Anthropic takes tool ids (`tool_use.id`, `tool_result.tool_use_id`) matching `^[a-zA-Z0-9_-]+$`
 * only, and refuses the whole request otherwise; OpenAI-compatible servers write ids such as Kimi's
 * `functions.get_weather:0`. As LiteLLM does, every other character becomes `_`: the same id always
 * maps to the same one, so a call and its result stay paired.
 */
const OUTSIDE_PATTERN = /[^a-zA-Z0-9_-]/g;

/** A tool id Anthropic accepts, for a call or result sent to it. */
export function anthropicToolId(id: string): string {
  return id.replace(OUTSIDE_PATTERN, '_');
}

/**
 * The id of a tool call handed to a Messages client: one Anthropic accepts, since the client sends
 * it back in its history, maybe to a Claude model; a fresh one for servers that omit it.
 */
export function toolUseId(id: string): string {
  return id === '' ? `toolu_${randomUUID().replaceAll('-', '')}` : anthropicToolId(id);
}
