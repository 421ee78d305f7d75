import type { IrFilePart } from './ir.js';
import { parseDataUrl, TranslationError } from './translation-error.js';

/**
 * Inline files (PDFs) between the formats: chat's `file.file_data` and Responses' `input_file.file_data`
 * are base64 `data:` URLs; Anthropic's `document` carries the media type and the base64 apart.
 */

/** A file part from a client's base64 `data:` URL, refused naming `path` when it is not one. */
export function fileFromDataUrl(dataUrl: unknown, filename: unknown, path: string): IrFilePart {
  const inline = typeof dataUrl === 'string' ? parseDataUrl(dataUrl) : undefined;
  if (!inline)
    throw TranslationError.at(path, 'must be a base64 data: URL (data:application/pdf;base64,<data>) for this model');
  const name = typeof filename === 'string' && filename.trim() !== '' ? filename : undefined;
  return {
    type: 'file',
    mediaType: inline.mediaType,
    data: inline.data,
    ...(name === undefined ? {} : { filename: name }),
    field: path,
  };
}

/** The file as a base64 `data:` URL, as chat completions and Responses carry it. */
export function fileDataUrl(part: IrFilePart): string {
  return `data:${part.mediaType};base64,${part.data}`;
}

/**
 * The file's name, or one made from its media type (`document.pdf`): OpenAI refuses an inline file
 * without a name, with a message about a missing `file_id` that would not help the client.
 */
export function fileName(part: IrFilePart): string {
  if (part.filename !== undefined) return part.filename;
  const extension = FILE_EXTENSIONS.get(part.mediaType);
  return extension === undefined ? 'document' : `document.${extension}`;
}

const FILE_EXTENSIONS: ReadonlyMap<string, string> = new Map([
  ['application/pdf', 'pdf'],
  ['text/plain', 'txt'],
  ['text/markdown', 'md'],
  ['text/csv', 'csv'],
  ['application/json', 'json'],
]);
