import { z } from 'zod';
import { queryFilter, queryParams } from './query-params.js';
import { apiKeyCreatedSchema } from './gateway-api.js';

/**
 * Schemas of single sign-on (`/sso/*` and `/internal/sso/*`), shared by the server, the UI and the
 * `npm run login` command. Pure zod.
 */

/** A code challenge: base64url of the sha256 of the client's verifier (as PKCE's S256). */
const challenge = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be the base64url sha256 of a verifier (43 characters)');

/** `GET /sso/login` query. */
export const ssoLoginQuerySchema = z.object({
  provider: z.string().min(1).max(100),
  /** Where the browser goes with the hand-off: a path under /ui/ on this gateway, or a loopback URL (a tool). */
  return_to: z.string().min(1).max(2000),
  challenge,
  /** Set by the gateway when it sent the browser to the redirect_uri's host: it does not send it on again. */
  moved: z.literal('1').optional(),
});

/** `GET /sso/callback` query: what the provider sends back. */
export const ssoCallbackQuerySchema = z
  .object({
    state: z.string().max(500).optional(),
    code: z.string().max(4000).optional(),
    error: z.string().max(500).optional(),
    error_description: z.string().max(2000).optional(),
  })
  .loose();

/** `POST /sso/redeem` body: the hand-off from the redirect and the verifier only its starter knows. */
export const ssoRedeemSchema = z
  .object({
    handoff: z.string().min(1).max(200),
    verifier: z.string().min(43).max(128),
  })
  .strict();

/** The key issued by a sign-in, shown this once, with who it was issued to. */
export const ssoIssuedKeySchema = apiKeyCreatedSchema.extend({
  provider: z.string(),
  provider_name: z.string(),
  session_id: z.string(),
  /**
   * Whether the provider gave a refresh token, so that the user's membership is checked again every
   * refresh interval (false: the key lasts until `expires_at`, or until revoked, unchecked).
   */
  refreshable: z.boolean(),
});
/** A key issued through single sign-on. */
export type SsoIssuedKey = z.infer<typeof ssoIssuedKeySchema>;

/** `POST /sso/logout` answer: the key is revoked; `end_session_url` ends the provider's session too. */
export const ssoLogoutResultSchema = z.object({
  key_id: z.string(),
  session_id: z.string(),
  revoked: z.literal(true),
  end_session_url: z.string().nullable(),
});
/** What signing out did. */
export type SsoLogoutResult = z.infer<typeof ssoLogoutResultSchema>;

/** `POST /sso/logout?all=true`: signing out, and every other key of the account at that provider revoked. */
export const ssoLogoutAllResultSchema = ssoLogoutResultSchema.extend({
  /** How many keys were revoked, the presented one included. */
  revoked_keys: z.number().int(),
  key_ids: z.array(z.string()),
});
/** What signing out everywhere did. */
export type SsoLogoutAllResult = z.infer<typeof ssoLogoutAllResultSchema>;

/** `GET /sso/failures/:ref`: why a sign-in failed, in the gateway's words (the UI's page gets only `error_ref`). */
export const ssoFailureSchema = z.object({ type: z.string(), message: z.string() });
/** A failed sign-in's reason. */
export type SsoFailure = z.infer<typeof ssoFailureSchema>;

/** One configured provider, for the "Sign in with …" buttons. */
export const ssoProviderInfoSchema = z.object({ id: z.string(), name: z.string() });
/** `GET /sso/providers` answer. */
export const ssoProviderListSchema = z.object({ data: z.array(ssoProviderInfoSchema) });
/** A provider's button. */
export type SsoProviderInfo = z.infer<typeof ssoProviderInfoSchema>;

/** An SSO session as the admin API shows it (never the refresh token). */
export const ssoSessionRecordSchema = z.object({
  id: z.string(),
  provider: z.string(),
  issuer: z.string(),
  subject: z.string(),
  user: z.string(),
  key_id: z.string(),
  groups: z.array(z.string()),
  /** Whether the provider gave a refresh token, so that group membership is checked again. */
  refreshable: z.boolean(),
  created_at: z.string(),
  refreshed_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  end_reason: z.string().nullable(),
  /** When the user's membership was last confirmed by the provider: the sign-in, or the last successful refresh. */
  verified_at: z.string(),
  /**
   * `unverified`: the last refresh could not check the session (the provider down, refusing the
   * gateway's client, or its answer failing the checks); `suspended`: unverified for longer than the
   * provider's `max_unverified_seconds`, so the key answers 401 until a refresh succeeds.
   */
  status: z.enum(['active', 'unverified', 'suspended', 'ended']),
});
/** An SSO session. */
export type SsoSessionRecord = z.infer<typeof ssoSessionRecordSchema>;

/** `GET /internal/sso/sessions` query and answer. */
export const ssoSessionListQuerySchema = queryParams({
  provider: queryFilter.optional(),
  include_ended: z.enum(['true', 'false']).optional(),
});
export const ssoSessionListSchema = z.object({ data: z.array(ssoSessionRecordSchema) });

/** `POST /internal/sso/refresh` answer: how many open sessions were checked and which ended. */
export const ssoRefreshResultSchema = z.object({
  checked: z.number(),
  ended: z.array(z.object({ session_id: z.string(), key_id: z.string(), reason: z.string() })),
  unavailable: z.number(),
});
/** The outcome of a refresh round. */
export type SsoRefreshResult = z.infer<typeof ssoRefreshResultSchema>;
