import type { IrImagePart } from '../ir.js';
import { isObject, refusalAt, TranslationError } from '../translation-error.js';
import type { MessagesImageSource } from './messages-wire.js';

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

/** The image media types Anthropic reads; it refuses the whole request over any other. */
const ANTHROPIC_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * An IR image as a Messages image source. Inline bytes of a type Anthropic cannot read (a BMP, a PDF
 * sent as an image) are refused here naming the client's field, rather than by Anthropic as an
 * upstream failure; an image by URL is Anthropic's to fetch and check.
 */
export function imageSourceFromIr(part: IrImagePart): MessagesImageSource {
  if (part.source.kind === 'url') return { type: 'url', url: part.source.url };
  const mediaType = part.source.mediaType;
  if (!ANTHROPIC_IMAGE_TYPES.has(mediaType))
    throw refusalAt(
      part.field,
      `an image of type ${mediaType.slice(0, 80)}: Anthropic models read image/jpeg, image/png, image/gif and image/webp images`,
    );
  return { type: 'base64', media_type: mediaType, data: part.source.data };
}
