import { createHash } from 'node:crypto';

/**
 * Who issued a kept response's item ids: a provider's Responses API and the credential it was called
 * with, `<base URL> key:<first 16 hex digits of the key's SHA-256>` (`key:none` without a key). A
 * provider keeps items per account or project, which its key stands for: two OpenAI projects behind
 * one address each look up only their own ids. The key itself is never kept, only this fingerprint;
 * a deployment renamed keeps it, a key rotated is another credential (its ids are then sent without
 * their ids, as to another server). Responses kept before the credential was recorded name the base
 * URL alone.
 */
export function itemIssuer(baseUrl: string, apiKey: string | undefined): string {
  const fingerprint = apiKey ? createHash('sha256').update(apiKey).digest('hex').slice(0, 16) : 'none';
  return `${baseUrl.replace(/\/+$/, '')}${CREDENTIAL}${fingerprint}`;
}

const CREDENTIAL = ' key:';

/**
 * Whether ids a kept response recorded as issued by `kept` belong to the API called as `current`: the
 * same address and credential, or the same address for a response kept before credentials were
 * recorded (sent as before; should the provider not know them, the call is retried without them).
 */
export function sameIssuer(kept: string, current: string): boolean {
  if (kept === current) return true;
  return !kept.includes(CREDENTIAL) && kept === current.slice(0, current.lastIndexOf(CREDENTIAL));
}

/** An issuer as a log or an answer names it: its address, and its key's fingerprint (never the key). */
export function describeIssuer(issuer: string): string {
  const at = issuer.lastIndexOf(CREDENTIAL);
  if (at < 0) return issuer;
  const fingerprint = issuer.slice(at + CREDENTIAL.length);
  return `${issuer.slice(0, at)} (${fingerprint === 'none' ? 'without a key' : `key sha256:${fingerprint}…`})`;
}
