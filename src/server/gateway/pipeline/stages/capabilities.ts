import { AppError } from '../../../http/errors.js';
import type { Deployment } from '../../providers/types.js';
import type { Endpoint } from '../request-context.js';

/**
 * What a request needs of the deployment that serves it, read from the request itself:
 * `responses` (the Responses API), `streaming`, `vision` (image input), `reasoning` (reasoning
 * settings), `structured_outputs` (a JSON schema for the answer), `stateful` (a kept response),
 * `tools` (function tools), and `tool:<type>` for each hosted tool.
 */
export function requiredCapabilities(endpoint: Endpoint, body: Record<string, unknown>): string[] {
  const needs = new Set<string>();
  if (endpoint === 'responses') needs.add('responses');
  if (body.stream === true) needs.add('streaming');
  if (hasImage(body)) needs.add('vision');
  if (asksForReasoning(body)) needs.add('reasoning');
  if (asksForSchema(body)) needs.add('structured_outputs');
  if (body.store === true || typeof body.previous_response_id === 'string') needs.add('stateful');
  if (Array.isArray(body.tools)) {
    for (const tool of body.tools as Array<{ type?: unknown }>) {
      const type = typeof tool?.type === 'string' ? tool.type : 'function';
      // Messages tools have no type (a custom tool) or a dated server-tool type.
      if (type === 'function' || type === 'custom') needs.add('tools');
      else needs.add(`tool:${type}`);
    }
  }
  return [...needs];
}

const IMAGE_PARTS: ReadonlySet<unknown> = new Set(['image_url', 'image', 'input_image']);

/**
 * Image parts anywhere in the conversation (chat `image_url`, Messages `image`, Responses
 * `input_image`), tool results included: a Messages `tool_result` and a Responses
 * `function_call_output` carry content parts of their own.
 */
function hasImage(body: Record<string, unknown>): boolean {
  const turns = Array.isArray(body.messages) ? body.messages : Array.isArray(body.input) ? body.input : [];
  for (const turn of turns as Array<{ content?: unknown; output?: unknown }>) {
    if (partsHaveImage(turn?.content) || partsHaveImage(turn?.output)) return true;
  }
  return false;
}

function partsHaveImage(parts: unknown): boolean {
  if (!Array.isArray(parts)) return false;
  for (const part of parts as Array<{ type?: unknown; content?: unknown }>) {
    if (IMAGE_PARTS.has(part?.type)) return true;
    if (part?.type === 'tool_result' && partsHaveImage(part.content)) return true;
  }
  return false;
}

/**
 * Reasoning settings that ask for reasoning: chat `reasoning_effort`, Responses `reasoning`, Messages
 * `thinking`; not those that turn it off (`thinking: {type: "disabled"}`, an effort of `none`).
 */
function asksForReasoning(body: Record<string, unknown>): boolean {
  const thinking = body.thinking as { type?: unknown } | null | undefined;
  const reasoning = body.reasoning as { effort?: unknown } | null | undefined;
  return (
    (body.reasoning_effort != null && body.reasoning_effort !== 'none') ||
    (reasoning != null && reasoning.effort !== 'none') ||
    (thinking != null && thinking.type !== 'disabled')
  );
}

/**
 * A JSON schema for the answer, of type `json_schema`: chat `response_format`, Responses
 * `text.format`, Messages `output_config.format` (and the beta's `output_format`).
 */
function asksForSchema(body: Record<string, unknown>): boolean {
  type Format = { type?: unknown } | null | undefined;
  const chat = body.response_format as Format;
  const responses = (body.text as { format?: Format } | null | undefined)?.format;
  const messages = (body.output_config as { format?: Format } | null | undefined)?.format;
  const beta = body.output_format as Format;
  return [chat, responses, messages, beta].some((format) => format?.type === 'json_schema');
}

/** True when the deployment offers every capability needed; one that declares none is not restricted. */
export function offers(deployment: Deployment, needs: readonly string[]): boolean {
  const declared = deployment.capabilities;
  return declared === undefined || needs.every((need) => declared.includes(need));
}

/**
 * The deployments able to serve the request, or 400 capability_not_supported naming what none of
 * them offers, before any upstream is called.
 */
export function capableDeployments(
  deployments: readonly Deployment[],
  needs: readonly string[],
  model: string,
): readonly Deployment[] {
  if (needs.length === 0) return deployments;
  const capable = deployments.filter((deployment) => offers(deployment, needs));
  if (capable.length > 0 || deployments.length === 0) return capable;
  const missing = needs.filter((need) => !deployments.some((deployment) => offers(deployment, [need])));
  const named = (missing.length > 0 ? missing : needs).join(', ');
  return refuse(
    `no deployment of model '${model}' offers ${named} (the request needs ${needs.join(', ')}; deployments declare theirs in capabilities)`,
  );
}

function refuse(message: string): never {
  throw new AppError('capability_not_supported', message);
}
