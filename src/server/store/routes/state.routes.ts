import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MAX_KEYS_PER_REQUEST,
  stateKeysResponseSchema,
  stateQuerySchema,
  stateResponseSchema,
} from '../../../shared/store-api.js';
import { invalidError } from '../engine/errors.js';
import { entityTag, ifNoneMatchHits, notModified, weakEntityTag } from '../conditional-get.js';
import type { DocumentVersion } from '../engine/state-reads.js';
import { errorResponses, runOperation, type StoreRouteDeps } from './operation.js';
import { revisionAsOf } from './as-of-revision.js';
import { plusReadingOf } from './query-plus.js';

/**
 * GET /v1/state: the documents at head, a revision, a checkpoint or a time (`as_of`); all of them (413 past
 * `response_bytes`), or with `limit` or `after` one page in key order, or with `key` the documents named;
 * with `contents=false`, the same documents' keys and sizes without contents. Its `ETag` names the revision
 * answered and the parameters: a revision's documents never change (a pruned one is a 404), so a poller
 * whose `If-None-Match` still matches gets a 304 without the state being read. With `key` the tag is weak
 * and names the documents' contents instead of the revision: a poller of a few documents keeps its 304
 * while others change, and the `revision` of its kept answer is where those documents were read, still
 * true of them (docs/store.md#conditional-reads).
 */
export const stateRoutes: FastifyPluginAsyncZod<StoreRouteDeps> = async (app, { engine, metrics }) => {
  app.get(
    '/v1/state',
    {
      config: { storeAuth: { verb: 'read' } },
      schema: {
        querystring: stateQuerySchema,
        response: { 200: stateResponseSchema.or(stateKeysResponseSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { namespace, branch, limit, after, key: keys, contents, as_of: asOf } = request.query;
      let revision = request.query.revision;
      const keysOnly = contents === 'false';
      const paged = limit > 0 || after !== '';
      let checkpoint = request.query.checkpoint;
      // Named documents are a different answer of the same revision; a read of all of them keeps its tag.
      const keyed = keys.length > 0 ? [keys] : [];
      const parts = (answered: unknown) => [
        namespace,
        branch,
        answered,
        revision,
        checkpoint,
        limit,
        after,
        engine.limits.response_bytes,
        ...keyed,
        // Only a listing changes the tag, so tags of reads with contents stay what they were.
        ...(keysOnly ? ['keys'] : []),
      ];
      const tagOf = (answered: number) => entityTag(parts(answered));
      // Named documents are tagged by what they are, not by the revision: a write of other documents
      // leaves their tag, while the body's `revision` moves on, so the tag is weak.
      const tagOfNamed = (versions: readonly DocumentVersion[]) => weakEntityTag(parts(versions));
      let namedTag: string | undefined;
      const state = runOperation(metrics, 'state', () => {
        if (asOf !== undefined) {
          const other = revision !== 0 ? 'revision' : checkpoint !== '' ? 'checkpoint' : undefined;
          if (other !== undefined)
            throw invalidError(
              `as_of and ${other} cannot be used together: each selects the state to read; send one of them`,
            );
          // Read as that revision is, ETag included: the same state answers the same tag either way.
          revision = revisionAsOf(engine, { namespace, branch }, asOf);
        }
        const plussed = checkpoint === '' ? undefined : plusReadingOf(request.url, 'checkpoint');
        if (plussed !== undefined && plussed !== checkpoint)
          checkpoint = engine.checkpointReading(namespace, { spaced: checkpoint, plussed });
        if (keys.length > 0 && paged)
          throw invalidError(
            `key names the documents to read, at most ${MAX_KEYS_PER_REQUEST} of them: send it without limit and after`,
          );
        if (keys.length > 0)
          namedTag = tagOfNamed(engine.namedDocumentVersions({ namespace, branch }, { revision, checkpoint }, keys));
        if (request.headers['if-none-match'] !== undefined) {
          const current = namedTag ?? tagOf(engine.stateRevision({ namespace, branch }, { revision, checkpoint }));
          if (ifNoneMatchHits(request, current)) return { unchanged: current };
        }
        if (keysOnly)
          return engine.stateKeys(
            { namespace, branch },
            { revision, checkpoint },
            paged ? { limit, after } : undefined,
            keys,
          );
        if (keys.length > 0) return engine.stateOfKeys({ namespace, branch }, { revision, checkpoint }, keys);
        return paged
          ? engine.statePage({ namespace, branch }, { revision, checkpoint }, { limit, after })
          : engine.stateJson({ namespace, branch }, { revision, checkpoint });
      });
      if ('unchanged' in state) return notModified(reply as FastifyReply, state.unchanged);
      const tag = namedTag ?? tagOf(state.revision);
      if ('documents' in state) return (reply as FastifyReply).header('etag', tag).send(state);
      const cursor = 'next_cursor' in state ? `,"next_cursor":${JSON.stringify(state.next_cursor)}` : '';
      // The engine already wrote the documents as JSON: embed that text rather than parse and re-encode
      // 10,000 documents (re-encoding through zod would also turn a "__proto__" key into a prototype).
      return (reply as FastifyReply)
        .type('application/json; charset=utf-8')
        .header('etag', tag)
        .serializer((payload) => payload as string)
        .send(`{"revision":${state.revision},"objects":${state.objectsJson}${cursor}}`);
    },
  );
};
