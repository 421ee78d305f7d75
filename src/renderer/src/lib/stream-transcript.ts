/** One event of a recorded stream, with a one-line summary of what it carried. */
export interface TranscriptEvent {
  /** The SSE event name, or the payload's `type` (chat chunks have neither: `chunk`). */
  readonly name: string;
  readonly summary: string;
}

/** What a payload carried, in a few words: text deltas as text, items and errors by their fields. */
function summarise(data: string): { type?: string; summary: string } {
  if (data === '[DONE]') return { type: 'done', summary: '[DONE]' };
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(data) as Record<string, unknown>;
  } catch {
    return { summary: data.slice(0, 200) };
  }
  const type = typeof payload.type === 'string' ? payload.type : undefined;
  const item = payload.item as { type?: string; name?: string } | undefined;
  const error = payload.error as { message?: string } | undefined;
  const choice = (payload.choices as Array<{ delta?: { content?: string }; finish_reason?: unknown }> | undefined)?.[0];
  const delta =
    (payload.delta as { text?: string; stop_reason?: unknown } | string | undefined) ?? choice?.delta?.content;
  const summary =
    typeof delta === 'string'
      ? JSON.stringify(delta)
      : typeof delta?.text === 'string'
        ? JSON.stringify(delta.text)
        : error?.message !== undefined
          ? `error: ${error.message}`
          : item?.type !== undefined
            ? `${item.type}${item.name ? ` ${item.name}` : ''}`
            : typeof (payload.response as { status?: string } | undefined)?.status === 'string'
              ? `status ${(payload.response as { status: string }).status}`
              : ending(choice?.finish_reason ?? delta?.stop_reason, payload.usage);
  return { type, summary };
}

/**
 * How a frame ends the answer, when that is all it carries: the finish reason (chat's
 * `finish_reason`, Messages' `stop_reason`) and the token counts (`usage 12+9`, prompt and answer).
 */
function ending(reason: unknown, usage: unknown): string {
  const parts: string[] = [];
  if (typeof reason === 'string') parts.push(`finish ${reason}`);
  if (usage !== null && typeof usage === 'object') {
    const counts = usage as Record<string, unknown>;
    const input = counts.prompt_tokens ?? counts.input_tokens;
    const output = counts.completion_tokens ?? counts.output_tokens;
    if (typeof output === 'number') parts.push(`usage ${typeof input === 'number' ? `${input}+` : ''}${output}`);
  }
  return parts.join(', ');
}

/**
 * The events of a recorded stream (the SSE text the gateway sent), named and summarised, so a
 * Responses, Messages or chat stream reads as a list instead of raw frames. Undefined for text that
 * is not a stream.
 */
export function transcriptEvents(text: string): TranscriptEvent[] | undefined {
  if (!/^(event|data):/m.test(text)) return undefined;
  const events: TranscriptEvent[] = [];
  for (const frame of text.split(/\r?\n\r?\n/)) {
    if (frame.trim() === '') continue;
    let name = '';
    const data: string[] = [];
    for (const line of frame.split(/\r?\n/)) {
      if (line.startsWith('event:')) name = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    const { type, summary } = summarise(data.join('\n'));
    events.push({ name: name || type || 'chunk', summary });
  }
  return events;
}
