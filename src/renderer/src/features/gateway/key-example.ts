/** What a new key's example calls: an endpoint its scopes allow, with a model it may use. */
export interface KeyExample {
  readonly endpoint: 'chat' | 'responses' | 'embeddings';
  readonly model: string;
}

/** The model settings an example is chosen from (the Models screen's). */
export interface ExampleModels {
  readonly allowed_models: readonly string[];
  readonly default_embedding_model: string | null;
}

/** The calls an example may make, in the order one is chosen. */
const ENDPOINTS: readonly KeyExample['endpoint'][] = ['chat', 'responses', 'embeddings'];

const looksLikeEmbeddings = (model: string, models: ExampleModels | undefined): boolean =>
  model === models?.default_embedding_model || /embed/i.test(model);

/**
 * The call a new key's example makes, so the example works when pasted: an endpoint its scopes
 * allow (chat first, as most clients use it, then responses, then embeddings) for which it may use a
 * model that suits it (an embeddings model only for embeddings), from its own allow-list or else
 * the gateway's. A key that may chat but only with embeddings models gets the embeddings call when
 * it may make it. Undefined when its scopes allow none of the three (a key for retrieval only).
 */
export function keyExample(
  key: { readonly scopes: readonly string[]; readonly models: readonly string[] | null },
  models: ExampleModels | undefined,
): KeyExample | undefined {
  const allows = (scope: string): boolean => key.scopes.includes('*') || key.scopes.includes(scope);
  const endpoints = ENDPOINTS.filter(allows);
  if (endpoints.length === 0) return undefined;
  const candidates = key.models?.length ? key.models : (models?.allowed_models ?? []);
  const suitedTo = (endpoint: KeyExample['endpoint']): string | undefined => {
    const preferred = endpoint === 'embeddings' ? models?.default_embedding_model : undefined;
    if (preferred && candidates.includes(preferred)) return preferred;
    return candidates.find((model) => (endpoint === 'embeddings') === looksLikeEmbeddings(model, models));
  };
  for (const endpoint of endpoints) {
    const model = suitedTo(endpoint);
    if (model) return { endpoint, model };
  }
  // No model suits any of them: the first endpoint still, with what the key may use.
  const endpoint = endpoints[0]!;
  return { endpoint, model: candidates[0] ?? (endpoint === 'embeddings' ? 'demo/embed' : 'demo/echo') };
}
