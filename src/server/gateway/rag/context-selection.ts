import type { PiiEntityType } from '../../../shared/guardrails-api.js';
import type { RagCaller } from './access.js';
import type { EmbeddingCall } from './embedder.js';
import type { RagService } from './rag.service.js';
import { chunkSource, type ContextPassage } from './request-context-text.js';

/** What a request selecting collections is given: the passages, redacted and within the budget. */
export interface ContextSelection {
  /** The collections searched: those asked for that the caller may read. */
  readonly collections: readonly string[];
  /** Collections asked for that do not exist or that the caller may not read (not told apart). */
  readonly denied: readonly string[];
  /** In rank order, each as it goes upstream. */
  readonly passages: readonly ContextPassage[];
  /** PII entities redacted, by type. */
  readonly redacted: ReadonlyMap<PiiEntityType, number>;
  /** Chunks retrieved before the context budget chose among them. */
  readonly retrieved: number;
  /** The query's vector ranked the chunks too (else BM25 alone). */
  readonly queryEmbedded: boolean;
  /** The embeddings calls the query's vector took: usage books them. */
  readonly embeddingCalls: readonly EmbeddingCall[];
}

/** How to select: how many chunks to retrieve, for whom the search is, placeholders the request holds. */
export interface SelectionOptions {
  readonly topK: number;
  readonly requestId?: string;
  /** `search` (the admin console's) leaves the retrieval metrics alone. */
  readonly purpose: 'request' | 'search';
  readonly reserved?: ReadonlySet<string>;
  /** Fires when the client leaves: the query's embedding stops. */
  readonly signal?: AbortSignal;
}

/**
 * The context a caller's request would carry for `query`: the top chunks of the collections it may
 * read, redacted (texts and sources), then as many as fit `rag.max_context_chars`, a chunk too long for
 * what is left passed over for a shorter one ranked below it. The RAG stage puts these into a request;
 * the admin search shows them, so that it shows exactly what a key would be sent.
 */
export async function selectContext(
  rag: RagService,
  caller: RagCaller | null,
  names: readonly string[],
  query: string,
  options: SelectionOptions,
): Promise<ContextSelection> {
  if (query.trim() === '') {
    const { allowed, denied } = rag.retriever.readable(caller, names);
    return {
      collections: allowed.map((row) => row.name),
      denied,
      passages: [],
      redacted: new Map(),
      retrieved: 0,
      queryEmbedded: false,
      embeddingCalls: [],
    };
  }
  const retrieval = await rag.retriever.retrieve(
    caller,
    names,
    query,
    options.topK,
    options.requestId,
    options.purpose,
    options.signal,
  );
  // The admin console's search embeds its query too: the gateway's own spend (a request books its own).
  if (options.purpose === 'search' && options.requestId !== undefined)
    rag.usage.searched(retrieval.embeddingCalls, options.requestId, retrieval.collections);
  const { hits } = retrieval;
  // The sources too: a document's key or heading may hold an address as well as its text.
  const redacted = rag.redact([...hits.map((hit) => hit.text), ...hits.map(chunkSource)], options.reserved);
  const passages: ContextPassage[] = [];
  let budget = rag.settings.max_context_chars;
  for (const [index, hit] of hits.entries()) {
    const text = redacted.texts[index]!;
    if (text.length > budget) continue;
    budget -= text.length;
    passages.push({ hit, text, source: redacted.texts[hits.length + index]! });
  }
  return {
    collections: retrieval.collections,
    denied: retrieval.denied,
    passages,
    redacted: redacted.counts,
    retrieved: hits.length,
    queryEmbedded: retrieval.queryEmbedded,
    embeddingCalls: retrieval.embeddingCalls,
  };
}
