import { z } from 'zod';
import { badRequest } from '../../http/errors.js';
import type { ModelObject } from '../model-registry/model-registry.js';

/** A model as Anthropic's `GET /v1/models` describes it. */
export const anthropicModelSchema = z.object({
  type: z.literal('model'),
  id: z.string(),
  display_name: z.string(),
  created_at: z.string(),
});

/** Anthropic's model list page. */
export const anthropicModelListSchema = z.object({
  data: z.array(anthropicModelSchema),
  has_more: z.boolean(),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
});

/** Query of Anthropic's list: `limit` (1 to 1000, default 20) and the `after_id` / `before_id` cursors. */
export const anthropicListQuerySchema = z.looseObject({
  limit: z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1).max(1000))
    .optional(),
  after_id: z.string().min(1).optional(),
  before_id: z.string().min(1).optional(),
});

type AnthropicModel = z.infer<typeof anthropicModelSchema>;

/**
 * Anthropic's SDKs send `anthropic-version` on every call; they read model lists in Anthropic's shape
 * (`type`, `display_name`, `created_at`, cursors), OpenAI's SDK in OpenAI's.
 */
export function wantsAnthropicShape(headers: Readonly<Record<string, unknown>>): boolean {
  return typeof headers['anthropic-version'] === 'string';
}

/** One model in Anthropic's shape. */
export function anthropicModel(model: ModelObject): AnthropicModel {
  return {
    type: 'model',
    id: model.id,
    display_name: model.id,
    created_at: new Date(model.created * 1000).toISOString(),
  };
}

/** A page of models in Anthropic's shape, after or before a cursor as its API pages. */
export function anthropicModelPage(
  models: readonly ModelObject[],
  query: { limit?: number; after_id?: string; before_id?: string },
): z.infer<typeof anthropicModelListSchema> {
  const limit = query.limit ?? 20;
  let from = 0;
  let to = models.length;
  if (query.after_id !== undefined) from = cursorIndex(models, 'after_id', query.after_id) + 1;
  if (query.before_id !== undefined) to = cursorIndex(models, 'before_id', query.before_id);
  const window = models.slice(from, to);
  const page =
    query.before_id !== undefined && query.after_id === undefined ? window.slice(-limit) : window.slice(0, limit);
  const data = page.map(anthropicModel);
  return {
    data,
    has_more: page.length < window.length,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
  };
}

/**
 * Where a cursor points: a model of the list. Another id would read as the list's start (after_id) or
 * an empty page (before_id), either a wrong answer given as a right one.
 */
function cursorIndex(models: readonly ModelObject[], name: string, id: string): number {
  const index = models.findIndex((m) => m.id === id);
  if (index === -1)
    throw badRequest(
      `query parameter ${name} '${id.slice(0, 200)}' is not a model of this list; page with the first_id or last_id of an earlier page`,
    );
  return index;
}
