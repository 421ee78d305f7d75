import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  branchCreateRequestSchema,
  branchCreateResponseSchema,
  branchDeleteRequestSchema,
  branchDeleteResponseSchema,
  branchListQuerySchema,
  branchListResponseSchema,
  branchRenameRequestSchema,
  branchRenameResponseSchema,
} from '../../../shared/store-api.js';
import { answerOnce } from './idempotent-answer.js';
import { errorResponses, runOperation, type StoreRouteDeps } from './operation.js';

/**
 * GET /v1/branches (list, paged), POST /v1/branches (create from the scope's branch), DELETE /v1/branches
 * (Gatehouse extension: a branch and its history, so `admin` as gc is) and POST /v1/branches/rename
 * (Gatehouse extension: `admin` too, since the old name then reads as an empty branch).
 */
export const branchRoutes: FastifyPluginAsyncZod<StoreRouteDeps> = async (app, { engine, metrics }) => {
  app.get(
    '/v1/branches',
    {
      config: { storeAuth: { verb: 'read' } },
      schema: { querystring: branchListQuerySchema, response: { 200: branchListResponseSchema, ...errorResponses } },
    },
    async (request) => {
      const { namespace, branch, limit, after } = request.query;
      return runOperation(metrics, 'branch_list', () => engine.branches({ namespace, branch }, { limit, after }));
    },
  );

  app.post(
    '/v1/branches',
    {
      config: { storeAuth: { verb: 'write' }, idempotent: true },
      schema: { body: branchCreateRequestSchema, response: { 200: branchCreateResponseSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const { scope, name, from_revision: fromRevision, from_checkpoint: fromCheckpoint } = request.body;
      return answerOnce(request, reply, engine, () =>
        runOperation(metrics, 'branch_create', () =>
          engine.createBranch(scope, name, { fromRevision, fromCheckpoint }),
        ),
      );
    },
  );

  app.delete(
    '/v1/branches',
    {
      config: { storeAuth: { verb: 'admin' }, idempotent: true },
      schema: { body: branchDeleteRequestSchema, response: { 200: branchDeleteResponseSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const { namespace, name, expected_revision: expectedRevision, require_merged_into: into } = request.body;
      return answerOnce(request, reply, engine, () =>
        runOperation(metrics, 'branch_delete', () =>
          engine.deleteBranch({ namespace, branch: name }, expectedRevision, into),
        ),
      );
    },
  );

  app.post(
    '/v1/branches/rename',
    {
      config: { storeAuth: { verb: 'admin' }, idempotent: true },
      schema: { body: branchRenameRequestSchema, response: { 200: branchRenameResponseSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const { namespace, name, new_name: newName, expected_revision: expectedRevision } = request.body;
      return answerOnce(request, reply, engine, () =>
        runOperation(metrics, 'branch_rename', () =>
          engine.renameBranch({ namespace, branch: name }, newName, expectedRevision),
        ),
      );
    },
  );
};
