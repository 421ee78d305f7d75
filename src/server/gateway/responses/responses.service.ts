import { createHash } from 'node:crypto';
import { responseId } from '../formats/responses/responses-response-ir.js';
import type { ResponsesBody, ResponsesInputItem } from '../formats/responses/responses-schema.js';
import { GatewayError } from '../gateway-error.js';
import { withoutItemId } from './replayed-items.js';
import { carriesThinking } from '../formats/responses/carried-thinking.js';
import type { NewStoredResponseRow, ResponsesRepository, StoredResponseRow } from './responses.repository.js';

/** Who asks for a kept response: the key, and its team, which sees the team's responses too. */
export interface ResponseOwner {
  readonly keyId: string;
  readonly team: string | null;
  /** Whether `team` is still the record it was when the request began (see PrincipalsService.sameTeamSince). */
  readonly sameTeam: () => boolean;
  /**
   * Whether the key may read every one of these RAG collections (a teammate's response may quote
   * them), each the very collection the response was made with: one of the name made after
   * `keptAtMs` is another collection, whose readers say nothing of what the old one held.
   */
  readonly mayReadCollections: (names: readonly string[], keptAtMs: number) => boolean;
}

/** A kept conversation as it is sent again: its items, and the RAG collections its answers were made with. */
export interface KeptConversation {
  readonly items: ResponsesInputItem[];
  readonly ragCollections: readonly string[];
  /**
   * The Responses API that issued the id of each replayed item a provider made (see {@link ItemIds}),
   * by the item itself: two servers may well issue the same id.
   */
  readonly itemIssuers: ReadonlyMap<object, string>;
}

/** A request's input with its `item_reference` items resolved, and who issued the ids of the items replayed. */
export interface ResolvedReferences {
  readonly input: ResponsesBody['input'];
  readonly itemIssuers: ReadonlyMap<object, string>;
}

/** One page of a response's input items, in OpenAI's list shape. */
export interface InputItemsPage {
  readonly object: 'list';
  readonly data: Array<Record<string, unknown>>;
  readonly first_id: string | null;
  readonly last_id: string | null;
  readonly has_more: boolean;
}

/** Which page of input items: after an item id, up to `limit`, oldest (`asc`) or newest (`desc`) first. */
export interface InputItemsQuery {
  /** The page starts after this item (the next page). */
  readonly after?: string;
  /** The page ends before this item (the previous page): the `limit` items nearest to it. */
  readonly before?: string;
  readonly limit: number;
  readonly order: 'asc' | 'desc';
}

/**
 * Who made a Response's output item ids: the gateway, for an answer it translated, or a provider's own
 * Responses API, named by its base URL (`issuer`): only that API knows them.
 */
export type ItemIds = { readonly by: 'gateway' } | { readonly by: 'provider'; readonly issuer: string };

/**
 * Keeps the Response object given to a client, for the same request's later calls (a stream keeps it
 * as it starts and again as it ends). Returns the id it is kept under, which the client must be given.
 */
export type ResponseKeeper = (response: Record<string, unknown>, itemIds: ItemIds) => string;

/** The RAG collections a response is made with, read when it is kept (retrieval runs after the keeper is made). */
export type RagCollectionsOf = () => readonly string[];

/** A deleted response: the answer to its client, and where a provider keeps a copy of it, by which id. */
export interface DeletedResponse {
  readonly answer: { readonly id: string; readonly object: 'response'; readonly deleted: true };
  readonly keptUpstream?: { readonly issuer: string; readonly id: string };
}

/** The most responses one conversation may chain: each turn resends them all upstream. */
export const MAX_RESPONSE_CHAIN = 100;

/**
 * Kept responses (`store: true`): what is kept, who may see it (the key that made it, and keys of its
 * team), and the conversation a `previous_response_id` stands for. No provider keeps state here, so
 * a chain is rebuilt from the kept input items and outputs and sent in front of the new input.
 */
export class ResponsesService {
  constructor(
    private readonly repository: ResponsesRepository,
    private readonly now: () => number = Date.now,
  ) {}

  /** A keeper for one request: its own input (before any chain is added), owned by `owner`. */
  keeper(
    owner: ResponseOwner,
    input: string | readonly ResponsesInputItem[],
    previousId: string | null,
    ragCollections: RagCollectionsOf,
  ): ResponseKeeper {
    // A copy: the policy stages may rewrite the request's items in place (scrubbing) after this.
    const inputItems = listItems(structuredClone(input));
    const createdAt = this.now();
    let keptAs: string | undefined;
    let upstreamId: string | undefined;
    return (response, itemIds) => {
      const first = keptAs === undefined;
      upstreamId ??= String(response.id);
      keptAs ??= this.unusedId(upstreamId);
      const row: NewStoredResponseRow = {
        id: keptAs,
        keyId: owner.keyId,
        // Kept as the key's alone when its team was deleted meanwhile: a new team of that id is someone else.
        team: owner.sameTeam() ? owner.team : null,
        previousResponseId: previousId,
        response: { ...response, id: keptAs },
        inputItems,
        createdAt,
        itemIdsBy: itemIds.by,
        itemIdsIssuer: itemIds.by === 'provider' ? itemIds.issuer : null,
        upstreamId: itemIds.by === 'provider' ? upstreamId : null,
        ragCollections: [...new Set(ragCollections())].sort(),
      };
      // A stream's later objects only replace what its first one kept: deleted meanwhile (by its
      // client, or with its team), it stays deleted and the stream's end keeps nothing.
      if (first) this.repository.insert(row);
      else this.repository.update(row);
      return keptAs;
    };
  }

  /**
   * The id a new response is kept under: the provider's own, unless a response is already kept under
   * it. Some OpenAI-compatible servers answer every request with the same id; keeping the new answer
   * under it would replace an earlier turn, or leave two turns behind one id.
   */
  private unusedId(id: string): string {
    return this.repository.isKept(id) ? responseId() : id;
  }

  /**
   * The conversation up to and including `previousId`, oldest first: each kept response's input
   * items, then its output. A chain ends early where an earlier response was deleted or expired.
   * Refused (invalid) where `previousId` is not kept for the owner, as OpenAI refuses it (a bad
   * request field, not a missing resource), or a response of it did not complete (see {@link unfinishedTurn}).
   */
  conversation(owner: ResponseOwner, previousId: string): KeptConversation {
    const latest = this.readable(owner, previousId);
    // The same words whether no key keeps it or another key does: which one is not this key's to know.
    if (latest === undefined)
      throw new GatewayError(
        'invalid',
        `previous_response_id: Previous response with id '${previousId}' not found. It was never kept (store: true) ` +
          'for this key or its team, was deleted, or has expired; send the earlier turns in input instead',
      );
    const chain: StoredResponseRow[] = [latest];
    for (let id = chain[0]!.previousResponseId; id !== null;) {
      const row = this.readable(owner, id);
      if (row === undefined) break;
      if (chain.length === MAX_RESPONSE_CHAIN)
        throw new GatewayError(
          'invalid',
          `previous_response_id: the conversation of '${previousId}' is longer than ${MAX_RESPONSE_CHAIN} responses; start a new one with the turns that matter in input`,
        );
      chain.push(row);
      id = row.previousResponseId;
    }
    chain.forEach((row, index) => {
      const why = unfinishedTurn(row);
      if (why === undefined) return;
      const which = index === 0 ? '' : `the conversation of '${previousId}' holds `;
      throw new GatewayError('invalid', `previous_response_id: ${which}response '${row.id}' ${why}`);
    });
    const issued: Array<[object, string]> = [];
    const items = chain.reverse().flatMap((row) => {
      const output = outputOf(row);
      const issuer = row.itemIdsBy === 'provider' ? row.itemIdsIssuer : null;
      if (issuer !== null) for (const item of output) issued.push([item, issuer]);
      return [...row.inputItems, ...output] as ResponsesInputItem[];
    });
    const itemIssuers = withCarriedThinkingIssued(items, issued);
    return { items, ragCollections: [...new Set(chain.flatMap((row) => row.ragCollections))], itemIssuers };
  }

  /**
   * The request's `item_reference` items that name an output item this owner may read (by the rules of
   * `previous_response_id`: the key's own responses, and its team's), replaced by the items as a
   * conversation replays them. Those it may not read, or no response keeps, stay references: a native
   * Responses API may hold them itself, and a translated request refuses them naming the id. The
   * input is returned as it is when it holds no reference (no lookup is made).
   */
  resolveReferences(owner: ResponseOwner, input: ResponsesBody['input']): ResolvedReferences {
    if (typeof input === 'string' || !input.some(isItemReference)) return { input, itemIssuers: new Map() };
    const issued: Array<[object, string]> = [];
    const resolved = input.map((item) => {
      if (!isItemReference(item)) return item;
      const found = this.referenced(owner, item.id);
      if (found === undefined) return item;
      if (found.issuer !== null) issued.push([found.item, found.issuer]);
      return found.item as ResponsesInputItem;
    });
    return { input: resolved, itemIssuers: withCarriedThinkingIssued(resolved, issued) };
  }

  /** The output item `itemId` of a response the owner may read, as a conversation replays it. */
  private referenced(
    owner: ResponseOwner,
    itemId: string,
  ): { item: Record<string, unknown>; issuer: string | null } | undefined {
    for (const row of this.repository.findHoldersOfItem(itemId, owner.keyId, owner.team)) {
      if (!mayRead(owner, row)) continue;
      const output = Array.isArray(row.response.output) ? (row.response.output as Array<Record<string, unknown>>) : [];
      const item = output.find((candidate) => candidate.id === itemId);
      const replayed = item === undefined ? undefined : replayedOutput(row, item);
      if (replayed !== undefined)
        return { item: replayed, issuer: row.itemIdsBy === 'provider' ? row.itemIdsIssuer : null };
    }
    return undefined;
  }

  /** The kept Response object. */
  get(owner: ResponseOwner, id: string): Record<string, unknown> {
    return this.visible(owner, id).response;
  }

  /** A page of the input items the response was created from. */
  inputItems(owner: ResponseOwner, id: string, query: InputItemsQuery): InputItemsPage {
    const row = this.visible(owner, id);
    const items = row.inputItems.map((item, index) => asListed(item, row.id, index));
    const ordered = query.order === 'asc' ? items : [...items].reverse();
    const at = (id: string): number => ordered.findIndex((item) => item.id === id);
    // A cursor that names no item of this response is past the end it points to: an empty page.
    const lower = query.after === undefined ? 0 : at(query.after) < 0 ? ordered.length : at(query.after) + 1;
    const upper = query.before === undefined ? ordered.length : Math.max(at(query.before), 0);
    const towardStart = query.before !== undefined && query.after === undefined;
    const start = towardStart ? Math.max(lower, upper - query.limit) : lower;
    const end = towardStart ? upper : Math.min(upper, lower + query.limit);
    const data = ordered.slice(start, Math.max(start, end));
    return {
      object: 'list',
      data,
      first_id: data.length > 0 ? String(data[0]!.id) : null,
      last_id: data.length > 0 ? String(data.at(-1)!.id) : null,
      // More in the direction the cursor pages: before the page for `before`, after it otherwise.
      has_more: towardStart ? start > lower : end < upper,
    };
  }

  /**
   * Deletes a kept response, at once, even one still being written (its stream goes on to its client,
   * and its end keeps nothing). `keptUpstream`: the Responses API that answered it, which was told to
   * keep it too (`store: true`, for its item ids to be replayed), and the id it has there, so the
   * caller deletes it there as well.
   */
  delete(owner: ResponseOwner, id: string): DeletedResponse {
    const row = this.visible(owner, id);
    this.repository.delete(row.id, row.keyId);
    const issuer = row.itemIdsBy === 'provider' ? row.itemIdsIssuer : null;
    // Rows kept before the provider's id was recorded were kept under it, unless renamed (unknowable).
    const keptUpstream = issuer === null ? undefined : { issuer, id: row.upstreamId ?? row.id };
    return { answer: { id, object: 'response', deleted: true }, keptUpstream };
  }

  /** Marks failed the kept responses a crash left in progress (see ResponsesRepository.failInterrupted); how many. */
  failInterrupted(): number {
    return this.repository.failInterrupted('the gateway stopped before the response was complete');
  }

  /**
   * A deleted team's responses: a team created again under its id never sees them. Those of keys still
   * in use (moved to another team since) stay theirs; the rest are deleted (how many is answered).
   */
  forgetTeam(team: string): number {
    return this.repository.forgetTeam(team);
  }

  /** The row, when it exists and the owner may see it; otherwise not found, never saying which. */
  private visible(owner: ResponseOwner, id: string): StoredResponseRow {
    const row = this.readable(owner, id);
    if (row === undefined) throw new GatewayError('not_found', `no response with id '${id}'`);
    return row;
  }

  /**
   * The key's own row, or a teammate's made only with RAG collections the key may read too: an answer
   * may quote what was retrieved, so sharing it with the team must not open a collection to the team.
   */
  private readable(owner: ResponseOwner, id: string): StoredResponseRow | undefined {
    const row = this.repository.findVisible(id, owner.keyId, owner.team);
    return row !== undefined && mayRead(owner, row) ? row : undefined;
  }
}

/** Whether the owner may read a row its key or team holds (see ResponsesService.readable). */
function mayRead(owner: ResponseOwner, row: StoredResponseRow): boolean {
  if (row.keyId === owner.keyId) return true;
  return row.ragCollections.length === 0 || owner.mayReadCollections(row.ragCollections, row.createdAt);
}

/**
 * Why a kept response is no turn to continue from, if it is not: one still being written has no
 * answer yet (the next input would follow its input with nothing between), and a cancelled or failed
 * one only part of one, which sent again would read as the whole answer. An `incomplete` one (cut
 * off at the token limit, or by a content filter) is the answer as far as it went, and continues.
 */
function unfinishedTurn(row: StoredResponseRow): string | undefined {
  const status = row.response.status;
  if (status === 'in_progress' || status === 'queued')
    return `is still being written (status ${status}); continue it once its stream has ended`;
  if (status !== 'cancelled' && status !== 'failed') return undefined;
  const error = row.response.error as { message?: unknown } | null | undefined;
  const reason = typeof error?.message === 'string' ? ` (${error.message})` : '';
  const retry =
    row.previousResponseId === null
      ? 'send its input again without previous_response_id'
      : `send its input again with previous_response_id '${row.previousResponseId}'`;
  return (
    `${status === 'cancelled' ? 'was cancelled' : 'failed'} before it was complete${reason}, so it holds no ` +
    `answer to continue from; to try that turn again, ${retry}`
  );
}

/**
 * A kept response's output as it is sent again, in front of a later turn. Item ids the gateway made
 * for a translated answer are left out: a provider with a Responses API of its own looks up every id
 * it is sent among the items it stored, and refuses one it never issued. An assistant message goes
 * as its text, the form every Responses API takes without an id.
 */
function outputOf(row: StoredResponseRow): Array<Record<string, unknown>> {
  const output = Array.isArray(row.response.output) ? (row.response.output as Array<Record<string, unknown>>) : [];
  return output.flatMap((item) => {
    const replayed = replayedOutput(row, item);
    return replayed === undefined ? [] : [replayed];
  });
}

/**
 * One kept output item as it is sent again (see outputOf); a reasoning item carrying a Claude model's
 * signed thinking goes without its id, for the thinking to lead that turn again.
 */
function replayedOutput(row: StoredResponseRow, item: Record<string, unknown>): Record<string, unknown> | undefined {
  if (row.itemIdsBy === 'provider') return item;
  if (carriesThinking(item)) {
    const { id: _id, ...rest } = item;
    return rest;
  }
  return withoutItemId(item);
}

/** The issuer recorded for the gateway's carried thinking: no provider's, so no Responses API is sent it. */
const CARRIED_THINKING_ISSUER = 'gateway (carried thinking)';

/**
 * Who issued the replayed items: `issued`, the providers' own, and the gateway for every reasoning item
 * carrying its thinking (a provider's Responses API refuses encrypted content it did not write; one of
 * another issuer is sent without its reasoning). The gateway's come first: the last entry is the
 * provider that answered latest, which a continuation is routed to.
 */
function withCarriedThinkingIssued(
  items: readonly Record<string, unknown>[],
  issued: ReadonlyArray<[object, string]>,
): Map<object, string> {
  const carried = items.filter(carriesThinking).map((item): [object, string] => [item, CARRIED_THINKING_ISSUER]);
  return new Map([...carried, ...issued]);
}

/** An `item_reference` input item (its `type` said, as OpenAI's shape has it). */
function isItemReference(item: ResponsesInputItem): item is { type: 'item_reference'; id: string } {
  return item.type === 'item_reference' && typeof item.id === 'string';
}

/**
 * Input as it is kept: typed items, message text as content parts, and only the ids the client sent.
 * A continued conversation sends these items upstream again, and OpenAI looks up every item id it
 * is sent among the items it stored: an id made up here would be refused there ("Item with id ...
 * not found"). The ids of the input items list are therefore derived when listing (asListed).
 */
function listItems(input: string | readonly ResponsesInputItem[]): Array<Record<string, unknown>> {
  const items: readonly ResponsesInputItem[] =
    typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : input;
  return items.map((item) => {
    const type = item.type ?? 'message';
    if (type !== 'message' || typeof item.content !== 'string') return { ...item, type };
    const role = item.role as string;
    const text = { type: role === 'assistant' ? 'output_text' : 'input_text', text: item.content };
    return { ...item, type, content: [text] };
  });
}

/**
 * The item as OpenAI lists it: with an id (the client's own, else one derived from its place, the same
 * on every read) and, for the item types that have one, the `status` OpenAI gives items it was sent
 * (`completed`). Only the list shows these: the kept item is sent upstream again as the client sent it.
 */
function asListed(item: Record<string, unknown>, responseId: string, index: number): Record<string, unknown> {
  const type = typeof item.type === 'string' ? item.type : 'message';
  const prefix = ID_PREFIXES.get(type);
  const withStatus = prefix !== undefined && item.status === undefined ? { ...item, status: 'completed' } : item;
  if (typeof item.id === 'string') return withStatus;
  const digest = createHash('sha256').update(`${responseId}\0${index}`).digest('hex').slice(0, 32);
  return { ...withStatus, id: `${prefix ?? 'item'}_${digest}` };
}

// A Map: a client's `type` such as `constructor` must not find Object.prototype's members.
const ID_PREFIXES: ReadonlyMap<string, string> = new Map([
  ['message', 'msg'],
  ['function_call', 'fc'],
  ['function_call_output', 'fco'],
]);
