import { createHash } from 'node:crypto';

/**
 * OpenAI-compatible servers cap `user` (OpenRouter at 128 characters, OpenAI's safety identifier at
 * 64) and refuse the request over a longer one; Claude Code's `metadata.user_id` runs to about 160.
 * A longer id is sent as its SHA-256 in hex, 64 characters: the same user always reads the same, so
 * the server can still tell users apart, and the id itself stays with the gateway.
 */
const MAX_USER_LENGTH = 64;

/** The `user` of a chat completions request for the client's end-user id. */
export function chatUser(user: string): string {
  return user.length <= MAX_USER_LENGTH ? user : createHash('sha256').update(user).digest('hex');
}
