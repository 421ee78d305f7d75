import { describeValue } from './embeddings-input.js';

/** A vector of an upstream's answer that can be relayed, and its length in floats. */
export interface CheckedVector {
  readonly embedding: number[] | string;
  readonly dimensions: number;
}

/** Standard base64, padded or not: Buffer.from skips other characters silently, and would decode garbage. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * One `embedding` of an upstream's answer checked, or what is wrong with it (naming `where`): a
 * non-empty list of finite numbers, or, where base64 was asked of the upstream, base64 of finite
 * little-endian float32 values. Floats where base64 was asked are fine (servers that ignore
 * `encoding_format`; the gateway encodes them); base64 nobody asked for is not an answer to the request.
 */
export function checkVector(value: unknown, where: string, encoding: 'float' | 'base64'): CheckedVector | string {
  if (Array.isArray(value)) {
    if (value.length === 0) return `${where} is empty`;
    for (let index = 0; index < value.length; index += 1) {
      const number: unknown = value[index];
      // JSON has no NaN or Infinity, but a number past float64 (1e999) parses as Infinity.
      if (typeof number !== 'number' || !Number.isFinite(number))
        return `${where}[${index}] is ${describeValue(number)}, not a finite number`;
    }
    return { embedding: value as number[], dimensions: value.length };
  }
  if (typeof value === 'string') {
    if (encoding !== 'base64') return `${where} is a string (base64), but floats were asked for`;
    return checkBase64(value, where);
  }
  if (value === undefined) return `${where} is missing`;
  return `${where} is ${describeValue(value)}, not a list of numbers`;
}

function checkBase64(text: string, where: string): CheckedVector | string {
  if (text === '') return `${where} is empty`;
  if (!BASE64.test(text) || text.length % 4 === 1) return `${where} is not base64`;
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length % 4 !== 0) return `${where} is ${bytes.length} bytes, not whole float32 values`;
  for (let offset = 0; offset < bytes.length; offset += 4) {
    const number = bytes.readFloatLE(offset);
    if (!Number.isFinite(number)) return `${where}[${offset / 4}] is ${number}, not a finite number`;
  }
  return { embedding: text, dimensions: bytes.length / 4 };
}
