import { z } from 'zod';

/**
 * Bounds on every size a client controls in a request body. The body itself is capped (32 MiB by
 * default), which bounds texts; these bound what costs the gateway or a provider far more than its
 * own bytes (an embedding of 2^31 dimensions, a billion output tokens) and what no real client
 * sends (a 10 MB model name). Where a provider documents a limit it is used; otherwise the bound is
 * generous enough for any real request. docs/gateway.md lists them.
 */

/** Model names, ids, tool names, stop sequences, users, media types: identifiers, never prose. */
export const MAX_NAME_CHARS = 1024;
/** Turns of a conversation (Anthropic documents 100,000 messages per request). */
export const MAX_MESSAGES = 100_000;
/** Content parts of one turn, system blocks, tool calls of one turn. */
export const MAX_PARTS = 10_000;
/** Tools offered in one request (OpenAI takes 128; local servers more). */
export const MAX_TOOLS = 1024;
/** Stop sequences on Messages (chat completions keeps OpenAI's 4). */
export const MAX_STOP_SEQUENCES = 256;
/** Stop sequences on chat completions, as OpenAI documents. */
export const MAX_CHAT_STOP_SEQUENCES = 4;
/** `max_tokens` and its kin: more than any model's context window. */
export const MAX_OUTPUT_TOKENS = 1_000_000;
/** `top_k`: more than any model's vocabulary. */
export const MAX_TOP_K = 1_000_000;
/** Choices per request (`n`), as OpenAI documents. */
export const MAX_CHOICES = 128;
/** `top_logprobs`, as OpenAI documents. */
export const MAX_TOP_LOGPROBS = 20;
/** Entries of `logit_bias`. */
export const MAX_LOGIT_BIAS_ENTRIES = 1024;
/** Inputs of one embeddings request, as OpenAI documents. */
export const MAX_EMBEDDING_INPUTS = 2048;
/** Tokens of one token-array embeddings input. */
export const MAX_EMBEDDING_INPUT_TOKENS = 1_000_000;
/** `dimensions` of an embedding (OpenAI's largest model has 3072; open models reach 4096 to 8192). */
export const MAX_EMBEDDING_DIMENSIONS = 16_384;
/**
 * Numbers in one embeddings answer (inputs times dimensions): OpenAI's own largest answer, 2048
 * inputs of 3072 dimensions, already some 130 MB of JSON.
 */
export const MAX_EMBEDDING_VALUES = MAX_EMBEDDING_INPUTS * 3072;
/** Responses `metadata`, as OpenAI documents: 16 pairs, keys up to 64 characters, values up to 512. */
export const MAX_METADATA_ENTRIES = 16;
export const MAX_METADATA_KEY_CHARS = 64;
export const MAX_METADATA_VALUE_CHARS = 512;

/** An identifier-like string of at most {@link MAX_NAME_CHARS} characters. */
export function name() {
  return z.string().max(MAX_NAME_CHARS);
}

/** A non-empty identifier-like string of at most {@link MAX_NAME_CHARS} characters. */
export function requiredName() {
  return z.string().min(1).max(MAX_NAME_CHARS);
}

/** An integer in [min, max]; each message states the bound crossed and the value received. */
export function integerIn(min: number, max: number) {
  return z
    .number()
    .int()
    .min(min, { error: (issue) => `must be at least ${min}, got ${show(issue.input)}` })
    .max(max, { error: (issue) => `must be at most ${max}, got ${show(issue.input)}` });
}

/** An output-token count (`max_tokens`, `max_completion_tokens`, `max_output_tokens`). */
export function outputTokens() {
  return integerIn(1, MAX_OUTPUT_TOKENS);
}

/** An object of at most `max` entries (`logit_bias`, `metadata`), its values checked by `value`. */
export function boundedRecord<V extends z.ZodType>(value: V, max: number, maxKeyChars = MAX_NAME_CHARS) {
  return z.record(z.string(), value).check((ctx) => {
    const keys = Object.keys(ctx.value);
    const problem = (message: string) => ctx.issues.push({ code: 'custom', input: ctx.value, message });
    if (keys.length > max) problem(`must have at most ${max} entries, got ${keys.length}`);
    const long = keys.find((key) => key.length > maxKeyChars);
    if (long !== undefined)
      problem(`keys must be at most ${maxKeyChars} characters, got one of ${long.length} characters`);
  });
}

function show(value: unknown): string {
  return typeof value === 'number' ? String(value) : (JSON.stringify(value)?.slice(0, 40) ?? String(value));
}
