import type { FastifyInstance } from 'fastify';

/** The first segments under `/v1` of the store's routes. */
const STORE_SEGMENTS = new Set([
  'apply',
  'branches',
  'checkpoints',
  'cherry-pick',
  'diff',
  'gc',
  'log',
  'merge',
  'namespaces',
  'restore',
  'revert',
  'revisions',
  'rollback',
  'state',
  'token',
]);

/** The first segments under `/v1` of the gateway's model API (and of the OpenAI paths it does not serve). */
const GATEWAY_SEGMENTS = new Set(['chat', 'completions', 'embeddings', 'messages', 'models', 'responses']);

/**
 * For a path of the other service (`POST /v1/apply` sent to the gateway, `/v1/chat/completions` to the
 * store), where that service is: the two listen on neighbouring ports, and a client pointed at the
 * wrong one would otherwise read a bare 404. Which service `app` is comes from its own routes.
 */
export function otherServiceHint(app: FastifyInstance, path: string): string | undefined {
  const [, v1, segment] = path.split('/');
  if (v1 !== 'v1' || segment === undefined) return undefined;
  const isStore = !!app.findRoute({ method: 'GET', url: '/v1/state' });
  const isGateway = !!app.findRoute({ method: 'POST', url: '/v1/chat/completions' });
  if (isGateway && STORE_SEGMENTS.has(segment))
    return `this is the model gateway; /v1/${segment} is a document store path, served on the store's own port (STORE_PORT, 8748 by default)`;
  if (isStore && GATEWAY_SEGMENTS.has(segment))
    return `this is the document store; /v1/${segment} is a model gateway path, served on the gateway's own port (GATEWAY_PORT, 8747 by default)`;
  return undefined;
}
