import { badRequest } from '../../http/errors.js';
import type { ChunkPosition } from './rag-chunks.repository.js';

/**
 * The `next_cursor` of a chunk list: the last chunk's position rather than its id, so a document
 * re-indexed (its chunks deleted and made again) between two pages neither ends the list nor repeats it.
 */
export function encodeChunkCursor(position: ChunkPosition): string {
  return Buffer.from(JSON.stringify([position.documentKey, position.ordinal])).toString('base64url');
}

/** The position an `after` cursor names; 400 naming the parameter for anything `next_cursor` never held. */
export function decodeChunkCursor(cursor: string): ChunkPosition {
  const parsed = parseCursor(cursor);
  if (parsed === undefined)
    throw badRequest(`query parameter after must be the next_cursor of an earlier page, got '${cursor}'`);
  return parsed;
}

function parseCursor(cursor: string): ChunkPosition | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const [documentKey, ordinal] = value as [unknown, unknown];
  if (typeof documentKey !== 'string' || !Number.isSafeInteger(ordinal) || (ordinal as number) < 0) return undefined;
  return { documentKey, ordinal: ordinal as number };
}
