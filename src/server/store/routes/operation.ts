import type { FastifyRequest } from 'fastify';
import { storeErrorSchema, type ApplyResponse } from '../../../shared/store-api.js';
import { httpErrorFor, type ConflictDetail } from '../../http/errors.js';
import { StoreError, type ConflictDetails } from '../engine/errors.js';
import type { StoreEngine } from '../engine/store-engine.js';
import type { StoreVerb } from '../store-auth.js';
import type { StoreMetrics } from '../store-metrics.js';
import { withoutContents } from './lean-changes.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The permission a store route needs (checked by the store app's auth hook); `any`: a valid token. */
    storeAuth?: { readonly verb: StoreVerb | 'any' };
  }
}

/** What every store route plugin receives. */
export interface StoreRouteDeps {
  readonly engine: StoreEngine;
  readonly metrics: StoreMetrics;
}

/** Error responses every store route may give, in the shared error shape. */
export const errorResponses = {
  400: storeErrorSchema,
  401: storeErrorSchema,
  403: storeErrorSchema,
  404: storeErrorSchema,
  409: storeErrorSchema,
  413: storeErrorSchema,
  422: storeErrorSchema,
} as const;

/** How an operation went, for the metrics. */
export interface Outcome {
  readonly noop: boolean;
  readonly changed: number;
}

/** Outcome of a write answering `{noop, changes}`. */
export const changesOutcome = (result: { noop: boolean; changes: readonly unknown[] }): Outcome => ({
  noop: result.noop,
  changed: result.changes.length,
});

/** Runs one engine operation: times it, counts it, and maps domain errors to HTTP ones. */
export function runOperation<T>(
  metrics: StoreMetrics,
  operation: string,
  fn: () => T,
  outcome?: (result: T) => Outcome,
): T {
  const start = performance.now();
  try {
    const result = fn();
    const how = outcome?.(result);
    metrics.observe(operation, how?.noop ? 'noop' : 'success', (performance.now() - start) / 1000, how?.changed ?? 0);
    return result;
  } catch (error) {
    metrics.observe(operation, 'error', (performance.now() - start) / 1000, 0);
    throw error instanceof StoreError
      ? httpErrorFor(error.kind, error.message, error.headRevision, error.fromHeadRevision, wireDetail(error.details))
      : error;
  }
}

/** A 409's details as the error body carries them (the heads are carried by the error itself). */
function wireDetail(details: ConflictDetails): ConflictDetail {
  const fields: ConflictDetail = {
    reason: details.reason,
    merge_base: details.mergeBase,
    checkpoint_revision: details.checkpointRevision,
    unmerged_revisions: details.unmergedRevisions,
    conflicts: details.conflicts,
    conflicts_truncated: details.conflictsTruncated,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/**
 * A write's answer as the caller may see it. The changes carry the documents' contents before and
 * after, which only `read` may see: a write-only token (a CI job pushing configs) learns what changed
 * by key and type, never the contents it could not read with `state`; `contents_omitted` says so, as
 * on a list past the answer's bound, so a client does not read the missing contents as empty.
 */
export function visibleChanges<T extends ApplyResponse>(request: FastifyRequest, result: T): T {
  const grant = request.storeGrant;
  return grant === undefined || grant.verbs.includes('read') ? result : withoutContents(result);
}
