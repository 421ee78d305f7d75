import { COLLECTION_NAME_PATTERN, MAX_COLLECTION_NAME_LENGTH } from '../../../shared/rag-api.js';
import { badRequest } from '../../http/errors.js';

/** The characters COLLECTION_NAME_PATTERN accepts, whatever the length. */
const NAME_CHARACTERS = /^[A-Za-z0-9._-]+$/;

/**
 * The collection names a request's selector lists (`value`: the header, or the metadata entry, at
 * `param`): a comma-separated string, or a list. One that names none is refused rather than read as no
 * retrieval: an empty header is most likely a client's unset variable, and its user would get answers
 * without the documents they asked for and no sign of it.
 */
export function selectedCollections(value: unknown, where: string, param: string): string[] {
  const list = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : [value];
  const out: string[] = [];
  for (const item of list) {
    const name = typeof item === 'string' ? item.trim() : item;
    if (name === '') continue;
    if (typeof name === 'string' && NAME_CHARACTERS.test(name) && name.length > MAX_COLLECTION_NAME_LENGTH)
      throw badRequest(
        `${where} names a RAG collection of ${name.length} characters; a name is at most ${MAX_COLLECTION_NAME_LENGTH}`,
        param,
      );
    if (typeof name !== 'string' || !COLLECTION_NAME_PATTERN.test(name))
      throw badRequest(
        `${where} must list RAG collection names (letters, digits, ".", "_", "-"), got ${JSON.stringify(item)}`,
        param,
      );
    out.push(name);
  }
  if (out.length === 0)
    throw badRequest(
      `${where} names no RAG collection (got ${JSON.stringify(value)}): list one or more names separated by commas, or leave it out`,
      param,
    );
  return out;
}
