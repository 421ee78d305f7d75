import { isCompleteArguments } from '../cut-tool-calls.js';
import { toolCallIdOf } from './chat-response-ir.js';

/**
 * Which call of a streamed chat answer each `tool_calls` entry belongs to. OpenAI numbers parallel
 * calls by `index` and gives a call's `id` in its first entry only; some compatible servers (Ollama,
 * some vLLM builds) send every call whole at `index: 0`, each with its own id, and some send entries
 * with neither. Keyed by index alone, the second call's arguments would be appended to the first's
 * (two JSON objects run together, and one call lost), so entries are read as LiteLLM and the Vercel
 * AI SDK read them:
 *
 * - an id not seen before starts a call, even at an index already used; a known id continues its call;
 * - an entry without an id continues the call its index last started, and one without an index the
 *   last call, unless it names a function once that call's arguments are complete JSON, which no
 *   continuation can follow: then it is a call of its own (the server numbers nothing).
 *
 * Calls are keyed 0, 1, 2... in the order they start, which is what the IR's tool index means.
 */
export class StreamedToolCalls {
  /** The key of the call each upstream index last started. */
  private readonly byIndex = new Map<number, number>();
  private readonly byId = new Map<string, number>();
  /** Each call's arguments so far, by key. */
  private readonly args: string[] = [];
  private last: number | undefined;

  /** How many calls started. */
  get size(): number {
    return this.args.length;
  }

  /** The key of an entry's call, with the call's id when the entry starts it. */
  keyOf(entry: Record<string, unknown>): { key: number; id?: string } {
    const index = typeof entry.index === 'number' ? entry.index : undefined;
    const id = typeof entry.id === 'string' && entry.id !== '' ? entry.id : undefined;
    let key = id !== undefined ? this.byId.get(id) : index !== undefined ? this.byIndex.get(index) : this.last;
    if (id === undefined && index === undefined && key !== undefined && namesFunction(entry)) {
      if (isCompleteArguments(this.args[key]!)) key = undefined;
    }
    if (key !== undefined) {
      this.last = key;
      return { key };
    }
    key = this.args.length;
    this.args.push('');
    if (index !== undefined) this.byIndex.set(index, key);
    if (id !== undefined) this.byId.set(id, key);
    this.last = key;
    return { key, id: toolCallIdOf(id) };
  }

  /** Notes argument text of the call keyed `key`. */
  append(key: number, text: string): void {
    this.args[key] += text;
  }
}

function namesFunction(entry: Record<string, unknown>): boolean {
  const fn = entry.function as { name?: unknown } | undefined;
  return typeof fn?.name === 'string' && fn.name !== '';
}
