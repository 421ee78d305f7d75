/**
 * The reasoning text an OpenAI-compatible server writes beside a message's content: DeepSeek's API
 * and vLLM (before 0.10) as `reasoning_content`, OpenRouter, Ollama, LM Studio and newer vLLM as
 * `reasoning`. Some servers send both with the same text, so `reasoning_content` is taken first and
 * the other is not added to it. OpenAI's own models keep their reasoning to themselves.
 */
export function chatReasoningOf(holder: Record<string, unknown>): string | undefined {
  for (const field of ['reasoning_content', 'reasoning']) {
    const text = holder[field];
    if (typeof text === 'string' && text !== '') return text;
  }
  return undefined;
}
