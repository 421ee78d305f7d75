/**
 * An output item replayed to an API that did not issue its id: without the id, an assistant message
 * as its text. Reasoning items are dropped (undefined): they are only accepted back, by id, by the API
 * that produced them.
 */
export function withoutItemId(item: Record<string, unknown>): Record<string, unknown> | undefined {
  if (item.type === 'reasoning') return undefined;
  const { id: _id, ...rest } = item;
  return rest.type === 'message' ? messageAsText(rest) : rest;
}

function messageAsText(item: Record<string, unknown>): Record<string, unknown> {
  const parts = Array.isArray(item.content) ? (item.content as Array<Record<string, unknown>>) : [];
  const text = parts
    .map((part) => (typeof part.text === 'string' ? part.text : typeof part.refusal === 'string' ? part.refusal : ''))
    .join('');
  return { type: 'message', role: item.role, content: text };
}
