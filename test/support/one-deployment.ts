import { gatewayAdmin, startTempServers, type TempServers } from './temp-servers.js';

/** Both servers, serving one model from one OpenAI-compatible deployment, and a chat key for it. */
export interface OneDeployment {
  readonly servers: TempServers;
  readonly apiKey: string;
  /** POSTs a chat completion for the model (streamed or not) with the key. */
  chat(stream?: boolean): Promise<Response>;
}

/**
 * Starts the servers with `model` served by the OpenAI-compatible server at `baseUrl` (a test's own
 * upstream that misbehaves in some way), with `gateway` settings, and issues a chat key.
 */
export async function startOneDeployment(
  model: string,
  baseUrl: string,
  gateway: Record<string, unknown> = {},
): Promise<OneDeployment> {
  const servers = await startTempServers({
    llm: { allowed_models: [model] },
    gateway,
    deployments: [
      {
        id: 'only',
        model,
        provider: 'openai',
        upstream_model: 'gpt-4o-mini',
        base_url: baseUrl,
        api_key: 'sk-one-0123456789',
      },
    ],
  });
  const apiKey = (await gatewayAdmin(() => servers)('POST', '/internal/api-keys', { scopes: ['chat'] })).body.key;
  return {
    servers,
    apiKey,
    chat: (stream = false) =>
      fetch(`${servers.gatewayUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'hi' }] }),
      }),
  };
}
