/** Conversions between float embeddings and OpenAI's base64 encoding (little-endian float32). */

/** Floats as base64 of their little-endian float32 bytes. */
export function floatsToBase64(values: readonly number[]): string {
  const bytes = Buffer.alloc(values.length * 4);
  values.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}

/** Base64 of little-endian float32 bytes back to floats. */
export function base64ToFloats(text: string): number[] {
  const bytes = Buffer.from(text, 'base64');
  const out = new Array<number>(Math.floor(bytes.length / 4));
  for (let index = 0; index < out.length; index += 1) out[index] = bytes.readFloatLE(index * 4);
  return out;
}

/** Shortens a vector to `dimensions` and rescales it to unit length, as OpenAI's `dimensions` does. */
export function shorten(values: readonly number[], dimensions: number): number[] {
  if (values.length <= dimensions) return [...values];
  const head = values.slice(0, dimensions);
  return normalize(head);
}

/** Scales a vector to unit length (a zero vector stays zero). */
export function normalize(values: readonly number[]): number[] {
  let sum = 0;
  for (const value of values) sum += value * value;
  const norm = Math.sqrt(sum);
  return norm === 0 ? [...values] : values.map((value) => value / norm);
}
