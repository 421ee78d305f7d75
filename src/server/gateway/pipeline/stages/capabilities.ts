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
  if (body.reasoning != null || body.reasoning_effort != null || body.thinking != null) needs.add('reasoning');
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

/** Image parts anywhere in the conversation (chat `image_url`, Messages `image`, Responses `input_image`). */
function hasImage(body: Record<string, unknown>): boolean {
  const turns = Array.isArray(body.messages) ? body.messages : Array.isArray(body.input) ? body.input : [];
  for (const turn of turns as Array<{ content?: unknown }>) {
    if (!Array.isArray(turn?.content)) continue;
    for (const part of turn.content as Array<{ type?: unknown }>) {
      if (part?.type === 'image_url' || part?.type === 'image' || part?.type === 'input_image') return true;
    }
  }
  return false;
}

/** A JSON schema for the answer: chat `response_format`, Responses `text.format`, of type `json_schema`. */
function asksForSchema(body: Record<string, unknown>): boolean {
  const chat = body.response_format as { type?: unknown } | null | undefined;
  const responses = (body.text as { format?: { type?: unknown } } | null | undefined)?.format;
  return chat?.type === 'json_schema' || responses?.type === 'json_schema';
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
