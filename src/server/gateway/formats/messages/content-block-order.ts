import { isCompleteArguments } from '../cut-tool-calls.js';
import { isObject, parseToolArguments } from '../translation-error.js';

/**
 * Orders streamed content into Messages content blocks, which cannot interleave: a block starts,
 * takes its deltas and stops before the next one starts. Chat completions streams may interleave
 * parallel tool calls (argument deltas of call 0 after call 1 started), and a Messages client takes
 * a tool call's input as the JSON object its deltas add up to, so:
 *
 * - text goes out as it arrives, unless a tool call before it is still waiting; so does thinking (the
 *   model's reasoning, in a `thinking` block of its own), and a change between the two ends a block;
 * - a tool call waits, gathering its argument deltas, until they are complete JSON, then goes out as
 *   one block with one `input_json_delta` (as Anthropic's own streams hold a call's JSON back until
 *   it is checked), followed by whatever arrived behind it, in arrival order;
 * - at the end, calls still waiting go out, except those the token limit cut off, which are left out:
 *   their input would be an object the model never wrote. Arguments that are not a JSON object (a
 *   model's broken JSON) go out as `{"_raw_arguments": text}`, as in a whole answer: the SDKs parse a
 *   block's JSON when it stops, and one that does not parse throws away the whole answer.
 *
 * A call's arguments complete as JSON cannot take further text, so nothing valid is lost: deltas for a
 * call already sent can only come from a model emitting broken JSON, and are dropped. Another call is
 * never among them: the stream decoders key each call apart, including a chat server's second call
 * at a reused index (chat/streamed-tool-calls.ts).
 */

/** One step of the Messages stream, in an order Messages clients accept. */
export type BlockStep =
  | { readonly step: 'start_text' }
  | { readonly step: 'start_thinking' }
  | { readonly step: 'thinking'; readonly text: string }
  | { readonly step: 'start_tool'; readonly id: string; readonly name: string }
  | { readonly step: 'text'; readonly text: string }
  | { readonly step: 'json'; readonly json: string }
  | { readonly step: 'stop' };

/** What a run of text is: the answer, or the model's reasoning. */
export type TextKind = 'text' | 'thinking';

type Waiting =
  | { readonly kind: TextKind; readonly texts: string[] }
  | { readonly kind: 'tool'; readonly index: number; readonly id: string; readonly name: string; arguments: string };

/** Turns text and tool-call events (keyed by the IR's tool index) into block steps. */
export class ContentBlockOrder {
  /** The kind of the text or thinking block that is open, if one is. */
  private live: TextKind | undefined;
  /** Blocks not sent yet, in arrival order; the first is a tool call whose arguments are incomplete. */
  private readonly queue: Waiting[] = [];

  /** A text delta, or (`kind` thinking) one of reasoning. */
  text(text: string, kind: TextKind = 'text'): BlockStep[] {
    const last = this.queue.at(-1);
    if (last?.kind === kind) last.texts.push(text);
    else if (last !== undefined) this.queue.push({ kind, texts: [text] });
    else if (this.live === kind) return [delta(kind, text)];
    else {
      const steps = [...this.stopText(), start(kind), delta(kind, text)];
      this.live = kind;
      return steps;
    }
    return [];
  }

  /** A tool call starts. */
  toolStart(index: number, id: string, name: string): BlockStep[] {
    this.queue.push({ kind: 'tool', index, id, name, arguments: '' });
    return [];
  }

  /** Argument text of a tool call. */
  toolDelta(index: number, json: string): BlockStep[] {
    const call = this.queue.find((item) => item.kind === 'tool' && item.index === index);
    if (call?.kind !== 'tool') return [];
    call.arguments += json;
    return this.flush(false);
  }

  /** The stream ended (`cut`: at the token limit): sends what still waits and stops the last block. */
  end(cut: boolean): BlockStep[] {
    return [...this.flush(true, cut), ...this.stopText()];
  }

  /** Sends waiting blocks from the front while they are ready: all of them at the end. */
  private flush(atEnd: boolean, cut = false): BlockStep[] {
    const steps: BlockStep[] = [];
    for (let next = this.queue[0]; next !== undefined; next = this.queue[0]) {
      const complete = next.kind !== 'tool' || isCompleteArguments(next.arguments);
      if (!complete && !atEnd) break;
      this.queue.shift();
      if (!complete && cut) continue;
      steps.push(...this.stopText());
      if (next.kind !== 'tool') {
        const kind = next.kind;
        steps.push(start(kind), ...next.texts.map((text) => delta(kind, text)));
        this.live = kind;
      } else {
        steps.push({ step: 'start_tool', id: next.id, name: next.name });
        const json = inputJson(next.arguments);
        if (json !== '') steps.push({ step: 'json', json });
        steps.push({ step: 'stop' });
      }
    }
    return steps;
  }

  private stopText(): BlockStep[] {
    if (this.live === undefined) return [];
    this.live = undefined;
    return [{ step: 'stop' }];
  }
}

function start(kind: TextKind): BlockStep {
  return kind === 'text' ? { step: 'start_text' } : { step: 'start_thinking' };
}

function delta(kind: TextKind, text: string): BlockStep {
  return kind === 'text' ? { step: 'text', text } : { step: 'thinking', text };
}

/** A call's arguments as a JSON object's text: as written when they are one, else wrapped. */
function inputJson(text: string): string {
  if (text.trim() === '') return '';
  try {
    if (isObject(JSON.parse(text))) return text;
  } catch {
    // Broken JSON: wrapped below.
  }
  return JSON.stringify(parseToolArguments(text));
}
