/** The formats of a provider's 2xx JSON answer, each known by the list a client reads from it. */
export type AnswerFormat = 'chat' | 'messages' | 'responses' | 'embeddings';

const ANSWER_LIST: Readonly<Record<AnswerFormat, string>> = {
  chat: 'choices',
  messages: 'content',
  responses: 'output',
  embeddings: 'data',
};

/**
 * What makes a parsed 2xx body no answer of its format, or undefined when it is one. Only the list a
 * client reads is checked: a body without it (`{"hello":"world"}`, `choices: null`) would otherwise be
 * relayed as an empty success and its prompt charged. An embeddings list is checked item by item
 * against its request (count, indices, vectors, dimensions) by checkEmbeddingsAnswer, which knows it.
 */
export function answerProblem(format: AnswerFormat, body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'the body is not a JSON object';
  const field = ANSWER_LIST[format];
  const list = (body as Record<string, unknown>)[field];
  if (list === undefined) return `it has no '${field}'`;
  if (!Array.isArray(list)) return `its '${field}' is ${list === null ? 'null' : `a ${typeof list}`}, not a list`;
  // A chat completion has a choice per `n`, at least one; Messages content and Responses output may be empty.
  if (format === 'chat' && list.length === 0) return "its 'choices' is empty";
  return undefined;
}
