import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requiredName } from '../formats/limits.js';
import { beginPipeline } from '../pipeline/pipeline.js';
import { contextOf } from '../pipeline/request-context.js';
import { responseOwner } from '../responses/response-owner.js';
import { atEdge } from './gateway-errors.js';
import { deleteKeptResponse } from '../providers/delete-kept-response.js';
import { requestLog } from '../../http/logger.js';
import { badRequest, notFound } from '../../http/errors.js';
import { includeProblem } from '../formats/responses/responses-params.js';
import { describeIssuer } from '../responses/item-issuer.js';
import { replayFrames, unreplayable } from '../responses/stored-response-replay.js';
import { openEventStream } from '../../http/event-stream.js';

const params = z.object({ id: requiredName() });
/**
 * `stream=true` asks for the response's events, as OpenAI replays them (the openai SDK's
 * `responses.stream({ response_id })` and `responses.retrieve(id, { stream: true })`); only the final
 * object is kept, so a finished response's events are rebuilt from it. `starting_after`: only the
 * events after that `sequence_number`, where a dropped stream resumes.
 */
const retrieveQuery = z.looseObject({
  stream: z.enum(['true', 'false'], { error: "must be 'true' or 'false'" }).optional(),
  starting_after: z
    .string()
    .regex(/^\d+$/, 'must be a sequence number (an integer, 0 or more)')
    .transform(Number)
    .pipe(z.number().int().max(Number.MAX_SAFE_INTEGER, 'must be a sequence number (an integer, 0 or more)'))
    .optional(),
});
/**
 * The `include` values of a retrieval: `include[]=...` as the SDKs send them, or `include=...`. The
 * kept object is answered as it was kept whatever they say; an unknown one is refused, as OpenAI does.
 */
function includeOf(query: Record<string, unknown>): unknown[] | undefined {
  const given = [query['include[]'], query.include].filter((value) => value !== undefined);
  return given.length === 0 ? undefined : given.flat();
}
const responseSchema = z.looseObject({ id: z.string(), object: z.literal('response') });
const inputItemsQuery = z.looseObject({
  after: requiredName().optional(),
  before: requiredName().optional(),
  limit: z
    .string()
    .regex(/^\d+$/, 'must be an integer')
    .transform(Number)
    .pipe(z.number().int().min(1).max(100))
    .default(20),
  order: z.enum(['asc', 'desc']).default('desc'),
});
const inputItemsSchema = z.object({
  object: z.literal('list'),
  data: z.array(z.looseObject({ id: z.string(), type: z.string() })),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
  has_more: z.boolean(),
});
const deletedSchema = z.object({
  id: z.string(),
  object: z.literal('response'),
  deleted: z.literal(true),
  /** Beside OpenAI's fields, only when the provider's own copy could not be deleted too: why, and what to do. */
  warning: z.string().optional(),
});

/**
 * `GET /v1/responses/{id}`, `GET /v1/responses/{id}/input_items` and `DELETE /v1/responses/{id}` (the
 * `responses` scope): kept responses, seen by the key that made them and keys of its team; to any
 * other key they do not exist (404). Reads call no model, so they are not accounted as usage.
 */
export const storedResponsesRoutes: FastifyPluginAsync = async (app) => {
  const services = app.gateway;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const begin = (path: string) => beginPipeline('stored_responses', path, services);

  typed.get(
    '/v1/responses/:id',
    {
      schema: { params, querystring: retrieveQuery, response: { 200: responseSchema } },
      onRequest: begin('/v1/responses/:id'),
    },
    async (request, reply) => {
      const unknownInclude = includeProblem(includeOf(request.query));
      if (unknownInclude !== undefined) throw badRequest(unknownInclude.message, unknownInclude.param);
      const ctx = contextOf(request);
      const kept = atEdge(() => services.responses.get(responseOwner(ctx), request.params.id));
      if (request.query.stream !== 'true') return kept as z.infer<typeof responseSchema>;
      const refusal = unreplayable(kept);
      if (refusal !== undefined) throw badRequest(`query parameter stream cannot be true: ${refusal}`, 'stream');
      ctx.stream = true;
      // The whole replay is known at once and is a few times the kept object at most: one write.
      openEventStream(reply).end(replayFrames(kept, request.query.starting_after).join(''));
      return reply;
    },
  );

  typed.get(
    '/v1/responses/:id/input_items',
    {
      schema: { params, querystring: inputItemsQuery, response: { 200: inputItemsSchema } },
      onRequest: begin('/v1/responses/:id/input_items'),
    },
    async (request) => {
      const owner = responseOwner(contextOf(request));
      const { after, before, limit, order } = request.query;
      return atEdge(() =>
        services.responses.inputItems(owner, request.params.id, { after, before, limit, order }),
      ) as z.infer<typeof inputItemsSchema>;
    },
  );

  typed.delete(
    '/v1/responses/:id',
    { schema: { params, response: { 200: deletedSchema } }, onRequest: begin('/v1/responses/:id') },
    async (request) => {
      const ctx = contextOf(request);
      const { answer, keptUpstream } = atEdge(() => services.responses.delete(responseOwner(ctx), request.params.id));
      // Gone from here; the provider's own copy is deleted too, or the log and the answer say where it is left.
      if (keptUpstream === undefined) return answer;
      const { issuer, id } = keptUpstream;
      const left = (why: string): z.infer<typeof deletedSchema> => {
        const where = `${describeIssuer(issuer)}${id === answer.id ? '' : ` as ${id}`}`;
        requestLog(request).warn(
          { route: '/v1/responses/:id', issuer: describeIssuer(issuer) },
          `response ${answer.id} is deleted here but still kept at ${where}: ${why}; delete it there`,
        );
        return {
          ...answer,
          warning: `deleted here, but the provider's own copy${id === answer.id ? '' : ` (${id})`} was not deleted: ${why}; it stays there until the provider's retention ends, or an administrator deletes it with the key that made it`,
        };
      };
      return deleteKeptResponse({
        id,
        issuer,
        deployments: services.registry.routableDeployments(),
        pools: services.pools,
        signal: ctx.watch,
        requestId: ctx.requestId,
      }).then(
        (reached) =>
          reached
            ? answer
            : left(
                'no deployment calls that Responses API with the API key that made it any more (its key was changed, or its deployment removed)',
              ),
        (error: unknown) => left((error as Error).message),
      );
    },
  );

  for (const { path, shown, why } of NOT_OFFERED)
    app.post(path, { onRequest: begin(path) }, async () => {
      throw notFound(`POST ${shown} is not offered by this gateway: ${why}`);
    });
};

/**
 * Endpoints of OpenAI's Responses API the gateway does not offer: each is answered 404, as a path
 * no route serves, but naming the endpoint and what to do instead, rather than reading its last
 * segment as a response id (`no route POST /v1/responses/compact; the path answers GET, DELETE`).
 */
const NOT_OFFERED = [
  {
    path: '/v1/responses/compact',
    shown: '/v1/responses/compact',
    why: 'compaction runs at OpenAI, over what it keeps; continue with previous_response_id (the gateway sends the whole kept conversation), or send the turns that matter in input',
  },
  {
    path: '/v1/responses/input_tokens',
    shown: '/v1/responses/input_tokens',
    why: "it counts a request's input tokens at OpenAI; a response's usage.input_tokens says how many its input took",
  },
  {
    path: '/v1/responses/:id/cancel',
    shown: '/v1/responses/{id}/cancel',
    why: 'it cancels a background response, and background: true is refused here; a streamed response ends when its client closes the connection, and is kept as cancelled',
  },
] as const;
