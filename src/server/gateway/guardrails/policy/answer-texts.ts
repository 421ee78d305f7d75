import type { StreamFormat } from '../pii/stream-restore.js';

// Answers of three wire formats, read loosely: each field is checked where it is used.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** One text of a whole answer the client reads; `choice` is chat's choice index (0 elsewhere). */
export interface AnswerText {
  readonly text: string;
  readonly path: string;
  readonly choice: number;
}

const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

/**
 * The texts of a whole answer that the answer patterns read: assistant text, refusals and tool-call
 * arguments (a Messages `tool_use` input as its JSON text). The model's reasoning is not read.
 */
export function answerTexts(format: StreamFormat, body: Json): AnswerText[] {
  const texts: AnswerText[] = [];
  const add = (text: unknown, path: string, choice = 0): void => {
    if (typeof text === 'string' && text !== '') texts.push({ text, path, choice });
  };
  switch (format) {
    case 'chat':
      for (const [index, choice] of list(body.choices).entries()) {
        const message = choice.message as Json | undefined;
        if (message == null) continue;
        const at = `choices[${index}].message`;
        const choiceIndex = typeof choice.index === 'number' ? choice.index : index;
        if (Array.isArray(message.content))
          for (const [part, item] of list(message.content).entries())
            add(item.text, `${at}.content[${part}].text`, choiceIndex);
        else add(message.content, `${at}.content`, choiceIndex);
        add(message.refusal, `${at}.refusal`, choiceIndex);
        for (const [call, item] of list(message.tool_calls).entries())
          add(item.function?.arguments, `${at}.tool_calls[${call}].function.arguments`, choiceIndex);
        add(message.function_call?.arguments, `${at}.function_call.arguments`, choiceIndex);
      }
      return texts;
    case 'messages':
      for (const [index, block] of list(body.content).entries()) {
        if (block.type === 'text') add(block.text, `content[${index}].text`);
        else if ((block.type === 'tool_use' || block.type === 'server_tool_use') && block.input !== undefined)
          add(JSON.stringify(block.input), `content[${index}].input`);
      }
      return texts;
    case 'responses':
      for (const [index, item] of list(body.output).entries()) {
        const at = `output[${index}]`;
        if (item.type === 'message')
          for (const [part, content] of list(item.content).entries()) {
            add(content.text, `${at}.content[${part}].text`);
            add(content.refusal, `${at}.content[${part}].refusal`);
          }
        else if (item.type === 'function_call' || item.type === 'mcp_call') add(item.arguments, `${at}.arguments`);
        else if (item.type === 'custom_tool_call') add(item.input, `${at}.input`);
      }
      return texts;
    default:
      return format satisfies never;
  }
}

/**
 * The answer with what the policy stopped withheld, as the format's own content filter says it:
 * chat choices `finish_reason: "content_filter"` with `content: null` (as Azure OpenAI answers),
 * Messages `stop_reason: "refusal"` with no content, a Response `incomplete` for `content_filter`
 * with no output. Ids, model and usage stay.
 */
export function withheldAnswer(format: StreamFormat, body: Json, choices: ReadonlySet<number>): Json {
  switch (format) {
    case 'chat':
      return {
        ...body,
        choices: list(body.choices).map((choice, index) =>
          choices.has(typeof choice.index === 'number' ? choice.index : index)
            ? {
                ...choice,
                message: { role: 'assistant', content: null, refusal: null },
                logprobs: null,
                finish_reason: 'content_filter',
              }
            : choice,
        ),
      };
    case 'messages':
      return { ...body, content: [], stop_reason: 'refusal', stop_sequence: null };
    case 'responses': {
      const { output_text: _text, ...rest } = body;
      return { ...rest, status: 'incomplete', incomplete_details: { reason: 'content_filter' }, output: [] };
    }
    default:
      return format satisfies never;
  }
}
