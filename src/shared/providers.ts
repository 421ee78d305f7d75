/**
 * The providers a deployment may name, each with the product it stands for: the names the config file
 * and the admin API take as `provider`, and the choices the UI's deployment dialog offers. The server's
 * provider defaults are typed by these names, so a provider added on one side and not the other fails
 * the type check.
 */
export const PROVIDER_LABELS = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  azure: 'Azure OpenAI',
  ollama: 'Ollama',
  lmstudio: 'LM Studio',
  vllm: 'vLLM',
  llamacpp: 'llama.cpp server',
  openrouter: 'OpenRouter',
  gemini: 'Google Gemini',
  groq: 'Groq',
  mistral: 'Mistral',
  deepseek: 'DeepSeek',
  together_ai: 'Together AI',
  xai: 'xAI',
  fireworks_ai: 'Fireworks AI',
  openai_compatible: 'any OpenAI-compatible server (base URL required)',
  demo: 'built-in demo, no upstream',
} as const;

/** A provider name. */
export type ProviderName = keyof typeof PROVIDER_LABELS;

/** The providers that speak OpenAI's wire format (all but Anthropic's own and the built-in demo). */
export type OpenAICompatibleProvider = Exclude<ProviderName, 'anthropic' | 'demo'>;
