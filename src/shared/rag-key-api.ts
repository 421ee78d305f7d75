// The schema of GET /v1/rag/collections: the collections an API key may read, for its holder.
// Imported by the server route and by the renderer: no Node or database imports here.
import { z } from 'zod';

/** A collection as a reader sees it: what it is and how fresh, never its access lists or documents. */
export const ragReadableCollectionSchema = z.object({
  object: z.literal('rag.collection'),
  name: z.string(),
  description: z.string(),
  documents: z.number(),
  updated_at: z.string(),
});
/** A collection the calling key may read. */
export type RagReadableCollection = z.infer<typeof ragReadableCollectionSchema>;

/** `GET /v1/rag/collections` answer, in OpenAI's list shape. */
export const ragReadableCollectionListSchema = z.object({
  object: z.literal('list'),
  data: z.array(ragReadableCollectionSchema),
});
/** The collections the calling key may read. */
export type RagReadableCollectionList = z.infer<typeof ragReadableCollectionListSchema>;
