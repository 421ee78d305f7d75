import { forbidden } from '../../http/errors.js';
import { collectPlaceholders } from '../guardrails/pii/pii-scrubber.js';
import { visitRequestTexts } from '../guardrails/request-texts.js';
import type { RequestContext } from '../pipeline/request-context.js';
import type { PolicyStage } from '../pipeline/stages/policy-stages.js';
import type { RagCaller } from './access.js';
import { selectedCollections } from './collection-selector.js';
import { selectContext, type ContextSelection } from './context-selection.js';
import { bookQueryEmbedding } from './query-embedding-usage.js';
import type { RagService } from './rag.service.js';
import { contextBlock, injectContext, retrievalQuery, type RagEndpoint } from './request-context-text.js';

/** No collections (shared: most requests name none, and then allocate nothing here). */
const NONE: readonly string[] = [];

/** A map's own entry: a key named `constructor` or `__proto__` must not reach Object.prototype's members. */
function own(map: Readonly<Record<string, readonly string[]>>, name: string): readonly string[] {
  return Object.hasOwn(map, name) ? map[name]! : NONE;
}

/** Request header naming the collections to search (`<collection>[,<collection>...]`). */
export const RAG_HEADER = 'x-gatehouse-rag';
/** Response header listing the chunks put into the request (`<collection>:<chunk id>,...`). */
export const RAG_CHUNKS_HEADER = 'x-gatehouse-rag-chunks';
/** Request metadata key naming collections, like the header (a comma-separated string or a list). */
export const RAG_METADATA_KEY = 'gatehouse_rag';

/** What retrieval did for a request: on the context for the answer's header and the traffic record. */
export interface RagOutcome {
  readonly collections: readonly string[];
  /** Citations (`<collection>:<chunk id>`) of the chunks put into the request, in rank order. */
  readonly chunks: readonly string[];
}

/** Placeholders the request's texts already hold (what the PII stage handed out, or the client wrote). */
function placeholdersIn(ctx: RequestContext): Set<string> {
  const reserved = new Set<string>();
  visitRequestTexts(ctx.endpoint, ctx.body, (text) => collectPlaceholders(text, reserved));
  return reserved;
}

/** The collections the client asked for (header, metadata); removes the metadata entry before it goes upstream. */
function explicitCollections(ctx: RequestContext): readonly string[] {
  const header = ctx.headers[RAG_HEADER];
  const metadata = ctx.body.metadata as Record<string, unknown> | null | undefined;
  const inMetadata = metadata !== null && typeof metadata === 'object' && RAG_METADATA_KEY in metadata;
  if (header === undefined && !inMetadata) return NONE;
  const asked: string[] = [];
  if (header !== undefined)
    asked.push(
      ...selectedCollections(Array.isArray(header) ? header.join(',') : header, `header ${RAG_HEADER}`, RAG_HEADER),
    );
  if (inMetadata) {
    const param = `metadata.${RAG_METADATA_KEY}`;
    asked.push(...selectedCollections(metadata[RAG_METADATA_KEY], param, param));
    delete metadata[RAG_METADATA_KEY];
    if (Object.keys(metadata).length === 0) delete ctx.body.metadata;
  }
  return asked;
}

/**
 * The format RAG reads and writes for an endpoint, or undefined where it does not apply. A token count
 * is a Messages body, and counts the context the Messages request itself would carry (and is refused
 * the collections that request would be refused).
 */
function ragEndpointOf(endpoint: RequestContext['endpoint']): RagEndpoint | undefined {
  switch (endpoint) {
    case 'chat':
    case 'messages':
    case 'responses':
      return endpoint;
    case 'count_tokens':
      return 'messages';
    case 'embeddings':
    case 'models':
    case 'rag_collections':
    case 'stored_responses':
      return undefined;
    default:
      return endpoint satisfies never;
  }
}

/**
 * The `rag` policy slot: for chat completions, Messages (and its token counts) and Responses requests whose key may read the
 * selected collections (asked for by header or metadata, or configured for the key or the model),
 * retrieves the top chunks the caller may see, redacts them (PII, irreversibly) and puts them into the
 * request's system text with numbered citations. Asking for a collection the key may not read is 403
 * (whether or not it exists); configured collections the key may not read are skipped.
 */
export function ragStage(rag: RagService): PolicyStage {
  const settings = rag.settings;
  // Configured collections are the file's (fixed while the gateway runs): without any, which is the
  // default, a request that asks for none costs no lookups here.
  const hasConfigured = Object.keys(settings.keys).length + Object.keys(settings.models).length > 0;
  // Synchronous until a collection is selected: most requests select none and then cost no promise.
  return (ctx) => {
    const endpoint = ragEndpointOf(ctx.endpoint);
    if (endpoint === undefined) return undefined;
    const asked = explicitCollections(ctx);
    const principal = ctx.principal;
    if (principal?.kind !== 'key') return undefined;
    const key = principal.key.row;
    const denied = asked.length === 0 ? NONE : rag.retriever.readable(key, asked).denied;
    if (denied.length > 0)
      throw forbidden(
        `API key ${key.id} may not read RAG collection ${denied[0]} (it needs the rag:${denied[0]} scope and, ` +
          'where the collection lists its readers, to be listed)',
      );
    const readable = hasConfigured ? configuredReadable(rag, key, ctx.model) : NONE;
    if (asked.length === 0 && readable.length === 0) return undefined;
    const selected = [...asked, ...readable];
    return retrieveInto(rag, ctx, endpoint, key, selected);
  };
}

/** The collections configured for the key (by id or name) and the model that the key may read. */
function configuredReadable(
  rag: RagService,
  key: RagCaller & { readonly name: string | null },
  model: string | undefined,
): readonly string[] {
  const { keys, models } = rag.settings;
  const configured = [
    ...own(keys, key.id),
    ...(key.name !== null ? own(keys, key.name) : NONE),
    ...(model !== undefined ? own(models, model) : NONE),
  ];
  return configured.length === 0 ? NONE : rag.retriever.readable(key, configured).allowed.map((row) => row.name);
}

/** Retrieves from the selected collections and puts what the caller may see into the request. */
async function retrieveInto(
  rag: RagService,
  ctx: RequestContext,
  endpoint: RagEndpoint,
  key: RagCaller,
  selected: readonly string[],
): Promise<undefined> {
  // The query's embedding stops when the client leaves: nobody waits for its answer any more.
  const left = new AbortController();
  const leave = (): void => left.abort();
  if (ctx.watch.aborted) leave();
  else ctx.watch.once('abort', leave);
  let selection: ContextSelection;
  try {
    selection = await selectContext(rag, key, selected, retrievalQuery(endpoint, ctx.body), {
      topK: rag.settings.top_k,
      requestId: ctx.requestId,
      purpose: 'request',
      reserved: placeholdersIn(ctx),
      signal: left.signal,
    });
  } finally {
    ctx.watch.off('abort', leave);
  }
  bookQueryEmbedding(ctx, selection.embeddingCalls, selection.collections);
  for (const [type, count] of selection.redacted) ctx.services.metrics.piiEntities.labels(type).inc(count);
  const { passages } = selection;
  ctx.trace?.stageAttributes({
    'gatehouse.rag.collections': [...selection.collections],
    'gatehouse.rag.chunks_retrieved': selection.retrieved,
    'gatehouse.rag.chunks_given': passages.length,
    'gatehouse.rag.query_embedded': selection.queryEmbedded,
  });
  if (passages.length > 0) {
    const context = contextBlock(passages);
    injectContext(endpoint, ctx.body, context);
    // The limits stage reserved the prompt as the client sent it: the context is part of it now.
    ctx.services.limits.grow(ctx, context);
  }
  ctx.rag = { collections: selection.collections, chunks: passages.map((passage) => passage.hit.citation) };
  ctx.replyHeaders = { ...ctx.replyHeaders, [RAG_CHUNKS_HEADER]: ctx.rag.chunks.join(',') };
  return undefined;
}
