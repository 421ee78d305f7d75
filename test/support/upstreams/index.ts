/**
 * Mock provider upstreams for tests: local servers on 127.0.0.1 that speak OpenAI's and Anthropic's
 * wire formats, record every request, and can be scripted (errors, delays, hangs, dropped streams).
 * See README.md in this folder.
 */
export {
  startOpenAIUpstream,
  openAIErrorBody,
  mockVector,
  type OpenAIUpstream,
  type OpenAIScript,
  type OpenAIReply,
  type OpenAIUpstreamOptions,
} from './openai-upstream.js';
export {
  startAnthropicUpstream,
  anthropicErrorBody,
  type AnthropicUpstream,
  type AnthropicScript,
  type AnthropicReply,
  type AnthropicUpstreamOptions,
} from './anthropic-upstream.js';
export { startFrameServer, type FrameServer } from './frame-server.js';
export type { MockUpstream, RecordedRequest, BaseScript, Json } from './mock-server.js';
