import type { IrFilePart, IrPart, IrRequest, Usage } from './ir.js';

/**
 * Token estimates for when an upstream does not report usage: about four characters per token,
 * so that accounting never records zero for a real answer.
 */

const CHARS_PER_TOKEN = 4;
/** Chat templates add a few tokens per turn (role markers). */
const TOKENS_PER_MESSAGE = 3;
/** A low-detail image costs about this much at OpenAI; a fair floor for any provider. */
const TOKENS_PER_IMAGE = 85;

/**
 * An inline file (a PDF): Anthropic counts 1,500 to 3,000 tokens a page, and a page of PDF is some 50
 * to 100 KB, so one token per 50 bytes, and a page at the least. Only an estimate: the provider's own
 * count settles the request.
 */
export function estimateFileTokens(part: IrFilePart): number {
  return Math.max(1500, Math.ceil((part.data.length * 3) / 4 / 50));
}

/** Estimated tokens of a text. */
export function estimateTokens(text: string): number {
  return tokensForChars(text.length);
}

/** Estimated tokens of a number of characters. */
export function tokensForChars(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** Estimated prompt tokens of a whole request (system, turns, tool definitions, answer schema). */
export function estimatePromptTokens(request: IrRequest): number {
  let chars = 0;
  let tokens = 0;
  for (const text of request.system) chars += text.length;
  for (const message of request.messages) {
    tokens += TOKENS_PER_MESSAGE;
    for (const part of message.content) {
      const counted = partSize(part);
      chars += counted.chars;
      tokens += counted.tokens;
    }
  }
  for (const tool of request.tools ?? [])
    chars += tool.name.length + (tool.description?.length ?? 0) + JSON.stringify(tool.parameters).length;
  // A JSON answer's schema is sent too (as a tool to Anthropic, as response_format to OpenAI).
  if (request.responseFormat?.schema !== undefined) chars += JSON.stringify(request.responseFormat.schema).length;
  return tokens + tokensForChars(chars);
}

function partSize(part: IrPart): { chars: number; tokens: number } {
  switch (part.type) {
    case 'text':
      return { chars: part.text.length, tokens: 0 };
    case 'image':
      return { chars: 0, tokens: TOKENS_PER_IMAGE };
    case 'file':
      return { chars: 0, tokens: estimateFileTokens(part) };
    case 'tool_call':
      return { chars: part.name.length + part.arguments.length, tokens: 0 };
    case 'tool_result':
      return part.content.reduce(
        (sum, inner) => {
          const size = partSize(inner);
          return { chars: sum.chars + size.chars, tokens: sum.tokens + size.tokens };
        },
        { chars: 0, tokens: 0 },
      );
  }
}

/** Fills what the upstream left out of `reported` with estimates. */
export function completeUsage(reported: Partial<Usage> | undefined, estimate: () => Usage): Usage {
  const prompt = reported?.promptTokens;
  const completion = reported?.completionTokens;
  const cached = reported?.cachedPromptTokens;
  const written = reported?.cacheWritePromptTokens;
  let usage: Usage;
  if (prompt !== undefined && completion !== undefined) usage = { promptTokens: prompt, completionTokens: completion };
  else {
    const guess = estimate();
    usage = { promptTokens: prompt ?? guess.promptTokens, completionTokens: completion ?? guess.completionTokens };
    // For the trace (`gatehouse.usage.estimated`): not enumerable, so no body, row or copy carries it.
    Object.defineProperty(usage, 'estimated', { value: true });
  }
  // A cached count only means something beside the prompt count it is part of.
  if (cached !== undefined && prompt !== undefined && cached <= prompt) usage.cachedPromptTokens = cached;
  if (written !== undefined && prompt !== undefined && written + (usage.cachedPromptTokens ?? 0) <= prompt)
    usage.cacheWritePromptTokens = written;
  const reasoning = reported?.reasoningTokens;
  if (reasoning !== undefined && completion !== undefined && reasoning <= completion) usage.reasoningTokens = reasoning;
  const hourLong = reported?.cacheWrite1hPromptTokens;
  if (hourLong !== undefined && usage.cacheWritePromptTokens !== undefined && hourLong <= usage.cacheWritePromptTokens)
    usage.cacheWrite1hPromptTokens = hourLong;
  if (reported?.webSearchRequests !== undefined) usage.webSearchRequests = reported.webSearchRequests;
  return usage;
}

/**
 * Tracks the usage of a streamed answer: what the upstream reports, plus the characters seen, to
 * estimate what it does not.
 */
export class StreamUsage {
  private reported: Partial<Usage> = {};
  private outputChars = 0;

  constructor(private readonly promptEstimate: () => number) {}

  /** Records counts the upstream reported (later reports win, as they are cumulative). */
  report(usage: Partial<Usage>): void {
    if (usage.promptTokens !== undefined) this.reported.promptTokens = usage.promptTokens;
    if (usage.completionTokens !== undefined) this.reported.completionTokens = usage.completionTokens;
    if (usage.cachedPromptTokens !== undefined) this.reported.cachedPromptTokens = usage.cachedPromptTokens;
    if (usage.cacheWritePromptTokens !== undefined) this.reported.cacheWritePromptTokens = usage.cacheWritePromptTokens;
    if (usage.reasoningTokens !== undefined) this.reported.reasoningTokens = usage.reasoningTokens;
    if (usage.cacheWrite1hPromptTokens !== undefined)
      this.reported.cacheWrite1hPromptTokens = usage.cacheWrite1hPromptTokens;
    if (usage.webSearchRequests !== undefined) this.reported.webSearchRequests = usage.webSearchRequests;
  }

  /** Counts generated characters (text or tool arguments). */
  addOutput(chars: number): void {
    this.outputChars += chars;
  }

  /** The usage so far: reported counts, estimates where none were reported. */
  current(): Usage {
    return completeUsage(this.reported, () => ({
      promptTokens: this.promptEstimate(),
      completionTokens: tokensForChars(this.outputChars),
    }));
  }
}
