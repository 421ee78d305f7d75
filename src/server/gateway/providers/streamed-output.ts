/** An output item of a Response, as its events build it. */
type Item = Record<string, unknown>;

/**
 * The output a native Responses stream wrote so far, rebuilt from its events, for the Response kept
 * when the stream fails or its client leaves: the items finished whole, and the one in progress with
 * the text and arguments it had. Without it, such a response was kept with no output at all, where a
 * translated one keeps what was written.
 */
export class StreamedOutput {
  readonly #items: Item[] = [];

  /** Reads one event (its type and parsed data). */
  note(type: string, event: Record<string, unknown>): void {
    const index = event.output_index;
    if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0 || index > 10_000) return;
    switch (type) {
      case 'response.output_item.added':
      case 'response.output_item.done':
        if (event.item !== null && typeof event.item === 'object') this.#items[index] = { ...(event.item as Item) };
        return;
      case 'response.content_part.added': {
        const content = this.#content(index, event.content_index);
        if (content !== undefined && event.part !== null && typeof event.part === 'object')
          content.list[content.at] = { ...(event.part as Item) };
        return;
      }
      case 'response.output_text.delta':
      case 'response.refusal.delta': {
        const content = this.#content(index, event.content_index);
        if (content === undefined || typeof event.delta !== 'string') return;
        const field = type === 'response.refusal.delta' ? 'refusal' : 'text';
        const part = (content.list[content.at] ??= { type: field === 'text' ? 'output_text' : 'refusal' }) as Item;
        part[field] = (typeof part[field] === 'string' ? part[field] : '') + event.delta;
        return;
      }
      case 'response.function_call_arguments.delta': {
        const item = this.#items[index];
        if (item !== undefined && typeof event.delta === 'string')
          item.arguments = (typeof item.arguments === 'string' ? item.arguments : '') + event.delta;
        return;
      }
      default:
    }
  }

  /** The items so far (those still being written keep `in_progress`; a failed or cancelled Response marks them). */
  items(): Item[] {
    return this.#items.filter((item) => item !== undefined);
  }

  #content(index: number, contentIndex: unknown): { list: unknown[]; at: number } | undefined {
    const item = this.#items[index];
    if (item === undefined || typeof contentIndex !== 'number' || !Number.isSafeInteger(contentIndex)) return undefined;
    if (contentIndex < 0 || contentIndex > 1_000) return undefined;
    if (!Array.isArray(item.content)) item.content = [];
    return { list: item.content as unknown[], at: contentIndex };
  }
}
