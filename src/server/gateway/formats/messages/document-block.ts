import type { IrFilePart, IrPart } from '../ir.js';
import { fileName } from '../file-part.js';
import { isObject, refusalAt, TranslationError } from '../translation-error.js';
import { imageToIr } from './image-block.js';

/**
 * Anthropic's `document` blocks and the IR's file parts. A PDF travels as a file (chat's `file` part);
 * a plain-text document, or one made of content blocks, becomes text (and images) every model reads,
 * its title and context first. Documents by URL or by file id exist only at Anthropic.
 */

type JsonObject = Record<string, unknown>;

/** The IR parts of a Messages `document` block, for a model other than Anthropic's. */
export function documentToIr(block: JsonObject, path: string): IrPart[] {
  const source = block.source;
  if (!isObject(source)) throw new TranslationError(`${path}.source: must be an object with a type`);
  const title = presentText(block.title);
  const context = presentText(block.context);
  const heading = [title, context].filter((text): text is string => text !== undefined);
  switch (source.type) {
    case 'base64': {
      if (typeof source.data !== 'string' || source.data === '')
        throw new TranslationError(`${path}.source.data: must be the document's bytes, base64`);
      const mediaType = typeof source.media_type === 'string' ? source.media_type.toLowerCase() : 'application/pdf';
      const file: IrFilePart = { type: 'file', mediaType, data: source.data, ...(title ? { filename: title } : {}) };
      // The title names the file; the context has no place in a file part, so it goes before it as text.
      return context === undefined ? [file] : [{ type: 'text', text: context }, file];
    }
    case 'text':
      if (typeof source.data !== 'string')
        throw new TranslationError(`${path}.source.data: must be the document's text`);
      return [{ type: 'text', text: [...heading, source.data].join('\n\n') }];
    case 'content':
      return [...heading.map((text) => ({ type: 'text' as const, text })), ...contentSourceToIr(source, path)];
    case 'url':
    case 'file':
      throw new TranslationError(
        `${path}.source: a document by ${source.type === 'url' ? 'URL' : 'file id'} is only available on Anthropic models; send its contents (base64 for a PDF, text for text)`,
      );
    default:
      throw new TranslationError(
        `${path}.source.type must be one of 'base64', 'text', 'content' for this model, got '${String(source.type).slice(0, 40)}'`,
      );
  }
}

/** A field's text when it holds some (not blank). */
function presentText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** A document made of blocks: its text and images, in order. */
function contentSourceToIr(source: JsonObject, path: string): IrPart[] {
  if (typeof source.content === 'string') return [{ type: 'text', text: source.content }];
  if (!Array.isArray(source.content))
    throw new TranslationError(`${path}.source.content: must be a string or an array of text and image blocks`);
  return source.content.map((inner: unknown, index): IrPart => {
    const where = `${path}.source.content[${index}]`;
    if (isObject(inner) && inner.type === 'text' && typeof inner.text === 'string')
      return { type: 'text', text: inner.text };
    if (isObject(inner) && inner.type === 'image') return imageToIr(inner.source, where);
    throw new TranslationError(`${where}: a document's content must be text or image blocks for this model`);
  });
}

/**
 * A file as an Anthropic `document`: a PDF as a base64 source; a text file as a text source, which is
 * how Anthropic takes plain text. Anthropic reads no other kind of file, so one is refused here rather
 * than by Anthropic as an upstream failure.
 */
export function documentFromIr(part: IrFilePart): JsonObject {
  const title = fileName(part);
  if (part.mediaType === 'application/pdf')
    return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: part.data }, title };
  if (part.mediaType.startsWith('text/'))
    return {
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: Buffer.from(part.data, 'base64').toString('utf8') },
      title,
    };
  throw refusalAt(
    part.field,
    `a file of type ${part.mediaType.slice(0, 80)}: Anthropic models read PDF (application/pdf) and text (text/*) files`,
  );
}
