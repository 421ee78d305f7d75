import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MAX_KEYS_PER_REQUEST,
  logQuerySchema,
  logResponseSchema,
  revisionParamsSchema,
  revisionQuerySchema,
  revisionResponseSchema,
} from '../../../shared/store-api.js';
import { entityTag, ifNoneMatchHits, notModified } from '../conditional-get.js';
import { invalidError } from '../engine/errors.js';
import { errorResponses, runOperation, type StoreRouteDeps } from './operation.js';

/**
 * GET /v1/log (a branch's history) and GET /v1/revisions/:id (one revision, a page of its changes, or
 * the changes of named documents, with contents or sizes; Gatehouse extension). A log's `ETag` is taken from its body: gc can shorten a history whose head
 * has not moved.
 */
export const logRoutes: FastifyPluginAsyncZod<StoreRouteDeps> = async (app, { engine, metrics }) => {
  app.get(
    '/v1/log',
    {
      config: { storeAuth: { verb: 'read' } },
      schema: { querystring: logQuerySchema, response: { 200: logResponseSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const { namespace, branch, limit, after, key, contents, since, until } = request.query;
      const options = { key, contents: contents === 'true', since, until, sinceRevision: request.query.since_revision };
      const log = runOperation(metrics, 'log', () => engine.log({ namespace, branch }, { limit, after }, options));
      const body = JSON.stringify(log);
      const tag = entityTag([body]);
      if (ifNoneMatchHits(request, tag)) return notModified(reply as FastifyReply, tag);
      return (reply as FastifyReply)
        .type('application/json; charset=utf-8')
        .header('etag', tag)
        .serializer((payload) => payload as string)
        .send(body);
    },
  );

  app.get(
    '/v1/revisions/:id',
    {
      config: { storeAuth: { verb: 'read' } },
      schema: {
        params: revisionParamsSchema,
        querystring: revisionQuerySchema,
        response: { 200: revisionResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { namespace, limit, after, key: keys, contents } = request.query;
      const page = limit > 0 || after !== '' ? { limit, after } : undefined;
      return runOperation(metrics, 'revision', () => {
        if (keys.length > 0 && page)
          throw invalidError(
            `key names the documents whose changes to read, at most ${MAX_KEYS_PER_REQUEST} of them: send it without limit and after`,
          );
        return engine.revision(namespace, request.params.id, page, { contents: contents === 'true', keys });
      });
    },
  );
};
