import { createHash } from 'node:crypto';
import type { IrRequest } from '../ir.js';

/**
 * OpenAI takes tool names matching `^[a-zA-Z0-9_-]{1,64}$` only, and refuses the whole request
 * otherwise; Messages and Responses clients write longer ones (MCP tools are `mcp__<server>__<tool>`)
 * or other characters. Such a name is sent as a readable prefix and a hash of the whole name, and the
 * answer's calls get the client's name back. Both sides derive the mapping from the request alone, so
 * it needs no state and is the same on every request that names the tool.
 */
const CHAT_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const OUTSIDE_PATTERN = /[^a-zA-Z0-9_-]/g;
const MAX_LENGTH = 64;
const HASH_LENGTH = 8;

/** The names of one request both ways: the client's as sent upstream, and the upstream's back. */
export interface ToolNameMap {
  readonly sent: (name: string) => string;
  readonly restored: (name: string) => string;
}

/** The mapping of a request's tool names; undefined when every name goes upstream as it is. */
export function chatToolNames(ir: IrRequest): ToolNameMap | undefined {
  const names = namesOf(ir);
  const refused = [...names].filter((name) => name !== '' && !CHAT_TOOL_NAME.test(name)).sort();
  if (refused.length === 0) return undefined;
  const taken = new Set([...names].filter((name) => !refused.includes(name)));
  const toUpstream = new Map<string, string>();
  const toClient = new Map<string, string>();
  for (const name of refused) {
    let short = shortName(name, 0);
    // Another name of the request may already read so (a hash collision, or a client's own name).
    for (let attempt = 1; taken.has(short); attempt += 1) short = shortName(name, attempt);
    taken.add(short);
    toUpstream.set(name, short);
    toClient.set(short, name);
  }
  return {
    sent: (name) => toUpstream.get(name) ?? name,
    restored: (name) => toClient.get(name) ?? name,
  };
}

/** Every tool name the request carries: its tools, the forced choice, and the calls in its history. */
function namesOf(ir: IrRequest): Set<string> {
  const names = new Set<string>();
  for (const tool of ir.tools ?? []) names.add(tool.name);
  if (ir.toolChoice?.type === 'tool') names.add(ir.toolChoice.name);
  for (const message of ir.messages)
    for (const part of message.content) if (part.type === 'tool_call') names.add(part.name);
  return names;
}

function shortName(name: string, attempt: number): string {
  const hash = createHash('sha256')
    .update(attempt === 0 ? name : `${name}#${attempt}`)
    .digest('hex')
    .slice(0, HASH_LENGTH);
  const prefix = name.replace(OUTSIDE_PATTERN, '_').slice(0, MAX_LENGTH - HASH_LENGTH - 1);
  return `${prefix}_${hash}`;
}
