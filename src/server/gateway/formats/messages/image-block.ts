import type { IrImagePart } from '../ir.js';
import { isObject, TranslationError } from '../translation-error.js';

/**
 * A Messages image's source as an IR image, refused naming `path` where only Anthropic can read it
 * (a file id) or where it is no image source (a document's content blocks are not checked by the
 * request schema, so the fields are checked here).
 */
export function imageToIr(source: unknown, path: string): IrImagePart {
  if (isObject(source)) {
    if (source.type === 'base64' && typeof source.media_type === 'string' && typeof source.data === 'string')
      return { type: 'image', source: { kind: 'base64', mediaType: source.media_type, data: source.data } };
    if (source.type === 'url' && typeof source.url === 'string')
      return { type: 'image', source: { kind: 'url', url: source.url } };
    if (source.type === 'file')
      throw new TranslationError(`${path}: file images are only available on Anthropic models`);
  }
  throw new TranslationError(`${path}.source: must be a base64 or url image source for this model`);
}
