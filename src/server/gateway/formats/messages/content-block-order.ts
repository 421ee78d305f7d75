/**
 * Orders streamed content into Messages content blocks, which cannot interleave: a block starts,
 * takes its deltas and stops before the next one starts. Chat completions streams may interleave
 * parallel tool calls (argument deltas of call 0 after call 1 started), so:
 *
 * - one block is live and its deltas go out as they arrive;
 * - a block that starts while the live tool call's arguments are not yet complete JSON waits in a
 *   queue, buffering its deltas;
 * - once the live call's arguments parse, it stops and the queue is replayed in arrival order, the
 *   last replayed block becoming live; the rest is flushed at the end.
 *
 * Sequential streams (the usual case) never queue, so they stream as fast as they arrive; an
 * interleaved one delays only the later calls, until the earlier ones are complete. A call's
 * arguments complete as JSON cannot take further text, so nothing valid is lost: deltas for a
 * call already stopped can only come from a model emitting broken JSON, and are dropped.
 */

/** One step of the Messages stream, in an order Messages clients accept. */
export type BlockStep =
  | { readonly step: 'start_text' }
  | { readonly step: 'start_tool'; readonly id: string; readonly name: string }
  | { readonly step: 'text'; readonly text: string }
  | { readonly step: 'json'; readonly json: string }
  | { readonly step: 'stop' };

type Live = { readonly kind: 'text' } | { readonly kind: 'tool'; readonly index: number; arguments: string };
type Waiting =
  | { readonly kind: 'text'; readonly texts: string[] }
  | {
      readonly kind: 'tool';
      readonly index: number;
      readonly id: string;
      readonly name: string;
      readonly deltas: string[];
    };

/** Turns text and tool-call events (keyed by the IR's tool index) into block steps. */
export class ContentBlockOrder {
  private live: Live | undefined;
  private readonly queue: Waiting[] = [];

  /** A text delta. */
  text(text: string): BlockStep[] {
    const last = this.queue.at(-1);
    if (last?.kind === 'text') {
      last.texts.push(text);
      return [];
    }
    if (this.live?.kind === 'text' && this.queue.length === 0) return [{ step: 'text', text }];
    if (this.mustWait()) {
      this.queue.push({ kind: 'text', texts: [text] });
      return [];
    }
    const steps = this.stopLive();
    this.live = { kind: 'text' };
    return [...steps, { step: 'start_text' }, { step: 'text', text }];
  }

  /** A tool call starts. */
  toolStart(index: number, id: string, name: string): BlockStep[] {
    if (this.mustWait()) {
      this.queue.push({ kind: 'tool', index, id, name, deltas: [] });
      return [];
    }
    const steps = this.stopLive();
    this.live = { kind: 'tool', index, arguments: '' };
    return [...steps, { step: 'start_tool', id, name }];
  }

  /** Argument text of a tool call. */
  toolDelta(index: number, json: string): BlockStep[] {
    const live = this.live;
    if (live?.kind === 'tool' && live.index === index) {
      live.arguments += json;
      const steps: BlockStep[] = [{ step: 'json', json }];
      if (this.queue.length > 0 && !this.liveIsMidArguments()) steps.push(...this.replay(false));
      return steps;
    }
    const waiting = this.queue.find((item) => item.kind === 'tool' && item.index === index);
    if (waiting?.kind === 'tool') waiting.deltas.push(json);
    return [];
  }

  /** The stream ended: stop the live block and replay everything still waiting. */
  end(): BlockStep[] {
    return this.replay(true);
  }

  /** Whether a new block must wait: something already waits, or the live call is mid-arguments. */
  private mustWait(): boolean {
    return this.queue.length > 0 || this.liveIsMidArguments();
  }

  private liveIsMidArguments(): boolean {
    return this.live?.kind === 'tool' && !isCompleteJson(this.live.arguments);
  }

  private stopLive(): BlockStep[] {
    if (this.live === undefined) return [];
    this.live = undefined;
    return [{ step: 'stop' }];
  }

  /** Stops the live block and starts waiting ones, until one is left live (or, at the end, none). */
  private replay(all: boolean): BlockStep[] {
    const steps = this.stopLive();
    for (let next = this.queue.shift(); next !== undefined; next = this.queue.shift()) {
      if (next.kind === 'text') {
        steps.push({ step: 'start_text' }, ...next.texts.map((text): BlockStep => ({ step: 'text', text })));
        this.live = { kind: 'text' };
      } else {
        steps.push(
          { step: 'start_tool', id: next.id, name: next.name },
          ...next.deltas.map((json): BlockStep => ({ step: 'json', json })),
        );
        this.live = { kind: 'tool', index: next.index, arguments: next.deltas.join('') };
      }
      // The last block stays live; an incomplete call stays live too, the rest keep waiting.
      if (!all && (this.queue.length === 0 || this.liveIsMidArguments())) return steps;
      steps.push(...this.stopLive());
    }
    return steps;
  }
}

/** Whether tool arguments (a JSON object) are complete; the suffix test spares parsing every delta. */
function isCompleteJson(text: string): boolean {
  if (!text.trimEnd().endsWith('}')) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
