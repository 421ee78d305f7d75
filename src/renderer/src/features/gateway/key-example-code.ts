import { assertNever } from '../../../../shared/assert-never.js';
import { shellQuote, toCurl } from '../../lib/curl.js';
import type { KeyExample } from './key-example.js';

/** The ways a new key's example is written, in the order the dialog offers them. */
export const EXAMPLE_LANGUAGES = [
  { value: 'python', label: 'Python' },
  { value: 'node', label: 'Node' },
  { value: 'curl', label: 'curl' },
  { value: 'env', label: 'Environment' },
] as const;

/** One of {@link EXAMPLE_LANGUAGES}. */
export type ExampleLanguage = (typeof EXAMPLE_LANGUAGES)[number]['value'];

const PATHS: Readonly<Record<KeyExample['endpoint'], string>> = {
  chat: '/v1/chat/completions',
  responses: '/v1/responses',
  embeddings: '/v1/embeddings',
};

/** The example's request body, as the three snippets send it. */
function requestBody(example: KeyExample): Record<string, unknown> {
  if (example.endpoint === 'chat') return { model: example.model, messages: [{ role: 'user', content: 'Hello' }] };
  return { model: example.model, input: 'Hello' };
}

/**
 * A snippet making the example's call with the new key against this gateway, that works as pasted:
 * Python and Node with the official `openai` package, curl, or the environment variables both
 * providers' SDKs read (Anthropic's too, for a key that may chat: /v1/messages is under the chat scope).
 */
export function keyExampleCode(
  language: ExampleLanguage,
  gatewayUrl: string,
  secret: string,
  example: KeyExample,
): string {
  switch (language) {
    case 'python':
      return pythonCode(gatewayUrl, secret, example);
    case 'node':
      return nodeCode(gatewayUrl, secret, example);
    case 'curl':
      return `export GATEHOUSE_API_KEY=${shellQuote(secret)}\n${toCurl({ baseUrl: gatewayUrl, method: 'POST', path: PATHS[example.endpoint], body: requestBody(example) })}`;
    case 'env':
      return envCode(gatewayUrl, secret, example);
    default:
      return assertNever(language);
  }
}

function pythonCode(gatewayUrl: string, secret: string, example: KeyExample): string {
  // JSON string literals are Python string literals too, whatever a model name holds.
  const client = `# pip install openai\nfrom openai import OpenAI\n\nclient = OpenAI(base_url=${JSON.stringify(`${gatewayUrl}/v1`)}, api_key=${JSON.stringify(secret)})\n`;
  const model = JSON.stringify(example.model);
  switch (example.endpoint) {
    case 'chat':
      return `${client}reply = client.chat.completions.create(\n    model=${model},\n    messages=[{"role": "user", "content": "Hello"}],\n)\nprint(reply.choices[0].message.content)`;
    case 'responses':
      return `${client}reply = client.responses.create(model=${model}, input="Hello")\nprint(reply.output_text)`;
    case 'embeddings':
      return `${client}result = client.embeddings.create(model=${model}, input="Hello")\nprint(len(result.data[0].embedding))`;
    default:
      return assertNever(example.endpoint);
  }
}

function nodeCode(gatewayUrl: string, secret: string, example: KeyExample): string {
  // JSON string literals are JavaScript string literals too.
  // An ES module (`import`, top-level `await`): a .mjs file runs it in any project.
  const client = `// npm install openai; save as example.mjs, then: node example.mjs\nimport OpenAI from 'openai';\n\nconst client = new OpenAI({ baseURL: ${JSON.stringify(`${gatewayUrl}/v1`)}, apiKey: ${JSON.stringify(secret)} });\n`;
  const model = JSON.stringify(example.model);
  switch (example.endpoint) {
    case 'chat':
      return `${client}const reply = await client.chat.completions.create({\n  model: ${model},\n  messages: [{ role: 'user', content: 'Hello' }],\n});\nconsole.log(reply.choices[0].message.content);`;
    case 'responses':
      return `${client}const reply = await client.responses.create({ model: ${model}, input: 'Hello' });\nconsole.log(reply.output_text);`;
    case 'embeddings':
      return `${client}const result = await client.embeddings.create({ model: ${model}, input: 'Hello' });\nconsole.log(result.data[0].embedding.length);`;
    default:
      return assertNever(example.endpoint);
  }
}

function envCode(gatewayUrl: string, secret: string, example: KeyExample): string {
  const lines = [
    '# Read by the OpenAI SDKs (Python, Node)',
    `export OPENAI_BASE_URL=${shellQuote(`${gatewayUrl}/v1`)}`,
    `export OPENAI_API_KEY=${shellQuote(secret)}`,
  ];
  if (example.endpoint === 'chat')
    lines.push(
      '# Read by the Anthropic SDKs (Messages, same key)',
      `export ANTHROPIC_BASE_URL=${shellQuote(gatewayUrl)}`,
      `export ANTHROPIC_API_KEY=${shellQuote(secret)}`,
    );
  return lines.join('\n');
}
