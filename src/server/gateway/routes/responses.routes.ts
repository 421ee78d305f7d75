import { screenKeptResponse } from '../guardrails/policy/answer-policy.js';
import type { FastifyPluginAsync } from 'fastify';
import { responsesRequestSchema, type ResponsesBody } from '../formats/responses/responses-schema.js';
import { responsesErrorFrame } from '../formats/responses/responses-stream-encoder.js';
import { postInference, type InferenceEndpoint } from '../pipeline/pipeline.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { resolveResponsesModel } from '../pipeline/stages/resolve-model.js';
import { executeResponses } from '../providers/index.js';
import { callsIssuer } from '../providers/native-responses.js';
import { tryFirst } from '../pipeline/stages/deployment-order.js';
import { responseOwner } from '../responses/response-owner.js';
import type { ResponseKeeper } from '../responses/responses.service.js';
import { forbidden } from '../../http/errors.js';
import { atEdge } from './gateway-errors.js';
import { prependReplayed } from '../formats/responses/replayed-input.js';
import { storedResponsesRoutes } from './stored-responses.routes.js';

/**
 * `POST /v1/responses` (the `responses` scope), served over each provider's chat API through the IR,
 * and the routes that read and delete kept responses.
 */
export const responsesRoutes: FastifyPluginAsync = async (app) => {
  const services = app.gateway;
  const keepers = new WeakMap<RequestContext, ResponseKeeper>();
  const replayedIssuers = new WeakMap<RequestContext, ReadonlyMap<object, string>>();
  const endpoint: InferenceEndpoint = {
    endpoint: 'responses',
    path: '/v1/responses',
    resolveModel: (ctx) => {
      resolveResponsesModel(ctx);
      const { keeper, itemIssuers } = prepareStatefulUse(ctx);
      if (keeper !== undefined) keepers.set(ctx, keeper);
      if (itemIssuers !== undefined) {
        replayedIssuers.set(ctx, itemIssuers);
        routeToIssuer(ctx, itemIssuers);
      }
    },
    call: (ctx, deployment) =>
      executeResponses({
        body: ctx.body as ResponsesBody,
        deployment,
        pools: services.pools,
        signal: ctx.watch,
        requestId: ctx.requestId,
        keep: keptAsAnswered(ctx, keepers.get(ctx)),
        replayedIssuers: replayedIssuers.get(ctx),
        traceHeaders: ctx.traceHeaders,
        report: ctx,
        outputCap: ctx.model === undefined ? undefined : services.registry.maxTokensCap(ctx.model),
      }),
    errorFrame: responsesErrorFrame,
  };
  postInference(app, endpoint, { body: responsesRequestSchema });
  await app.register(storedResponsesRoutes);
};

/**
 * A continuation goes first to a deployment that calls the Responses API and key that issued the
 * latest replayed items, when one of the model's is ready: another project behind the same address
 * holds none of them, and would be sent them without their ids, losing the provider's cached reasoning.
 */
function routeToIssuer(ctx: RequestContext, itemIssuers: ReadonlyMap<object, string>): void {
  let latest: string | undefined;
  for (const issuer of itemIssuers.values()) latest = issuer;
  if (latest !== undefined) tryFirst(ctx, (deployment) => callsIssuer(deployment, latest));
}

/**
 * A kept response is what the client got: with the originals the output stage (PII restore) puts
 * back, not the placeholders the provider saw, and withheld where the content policy stopped the
 * answer (reading it back must show no more than the answer did).
 */
function keptAsAnswered(ctx: RequestContext, keeper: ResponseKeeper | undefined): ResponseKeeper | undefined {
  if (keeper === undefined) return keeper;
  const restore = ctx.services.output.piiRestore;
  const restores = restore !== undefined && restore.applies(ctx);
  if (!restores && ctx.answerPolicy === undefined) return keeper;
  return (response, itemIds) => {
    const asAnswered = restores
      ? (JSON.parse(restore.text(ctx, JSON.stringify(response))) as Record<string, unknown>)
      : response;
    return keeper(screenKeptResponse(ctx, asAnswered), itemIds);
  };
}

/**
 * A kept response keeps the client's own `instructions`, not what the stages added to them (retrieved
 * context, which every reader of the kept response could otherwise see, whatever they may read).
 */
function withClientInstructions(keeper: ResponseKeeper, instructions: ResponsesBody['instructions']): ResponseKeeper {
  return (response, itemIds) =>
    keeper('instructions' in response ? { ...response, instructions: instructions ?? null } : response, itemIds);
}

/** Why this request may not keep responses or continue kept ones, when the key or the policy says so. */
function statefulDenial(ctx: RequestContext): string | undefined {
  if (!ctx.services.config.responses.allow_stateful)
    return 'stateful use is turned off (responses.allow_stateful is false): send store: false and the earlier turns in input';
  const principal = ctx.principal;
  if (principal?.kind === 'key' && !principal.key.row.allowStateful)
    return `API key ${principal.key.row.id} may not keep responses or continue kept ones (allow_stateful is false): send store: false and the earlier turns in input`;
  return undefined;
}

/** What a stateful request needs later: the keeper of its answer, and who issued the ids it replays. */
interface StatefulUse {
  readonly keeper?: ResponseKeeper;
  readonly itemIssuers?: ReadonlyMap<object, string>;
}

/**
 * `store` (defaulting to `responses.default_store`) and `previous_response_id`, before the policy
 * stages see the body: the earlier turns go in front of the input, so they are scrubbed and routed
 * (the `stateful` capability) like the rest. Returns the keeper of a response to keep and the
 * issuers of the replayed item ids.
 */
function prepareStatefulUse(ctx: RequestContext): StatefulUse {
  const body = ctx.body as ResponsesBody;
  const responses = ctx.services.responses;
  const denial = statefulDenial(ctx);
  if (denial !== undefined && (body.store === true || typeof body.previous_response_id === 'string'))
    throw forbidden(denial);
  // A default of store: true does not apply where stateful use is denied: nothing is kept, nothing refused.
  body.store ??= denial === undefined && ctx.services.config.responses.default_store;
  const previous = body.previous_response_id ?? null;
  // Items the gateway keeps, named by item_reference, go as the items (before the keeper copies the input).
  const referenced = denial === undefined ? responses.resolveReferences(responseOwner(ctx), body.input) : undefined;
  if (referenced !== undefined) body.input = referenced.input;
  const referencedIssuers = referenced?.itemIssuers ?? new Map<object, string>();
  if (!body.store && previous === null) return referencedIssuers.size > 0 ? { itemIssuers: referencedIssuers } : {};
  const owner = responseOwner(ctx);
  // The answer may quote what the conversation retrieved before, as well as what this request retrieves.
  let earlierCollections: readonly string[] = [];
  const ragCollections = () => [...earlierCollections, ...(ctx.rag?.collections ?? [])];
  // Taken before the chain is added: a response keeps only the input its own request sent.
  const keeper = body.store
    ? withClientInstructions(responses.keeper(owner, body.input, previous, ragCollections), body.instructions)
    : undefined;
  if (previous !== null) {
    const earlier = atEdge(() => responses.conversation(owner, previous), 'previous_response_id');
    earlierCollections = earlier.ragCollections;
    prependReplayed(body, earlier.items);
    return { keeper, itemIssuers: new Map([...earlier.itemIssuers, ...referencedIssuers]) };
  }
  return referencedIssuers.size > 0 ? { keeper, itemIssuers: referencedIssuers } : { keeper };
}
