import { z } from 'zod';
import { looksLikeSecret, SECRET_NOT_NAME } from '../../shared/variable-name.js';
import { scopeSchema } from '../../shared/gateway-api.js';
import { principalIdSchema } from '../../shared/principals-api.js';
import { HostAllowList } from '../http/host-check.js';

const positiveInt = z.number().int().positive();

/** What a matched group grants: scopes and models add up over every match; team, limits and budgets come from the first match that sets them. */
const grantSchema = z
  .object({
    team: principalIdSchema.optional(),
    scopes: z.array(scopeSchema).min(1).optional(),
    models: z.array(z.string().min(1)).min(1).optional(),
    rpm_limit: positiveInt.optional(),
    tpm_limit: positiveInt.optional(),
    user_tpm_budget: positiveInt.optional(),
    user_tpd_budget: positiveInt.optional(),
    team_tpm_budget: positiveInt.optional(),
    team_tpd_budget: positiveInt.optional(),
  })
  // A misspelt `models` would otherwise vanish, and a grant without models allows every model.
  .strict();

/** One claim mapping: users whose `claim` holds `value` (or contains it, for a list claim) get `grant`. */
const mappingSchema = grantSchema
  .extend({
    /** The ID token or userinfo claim to read; default the provider's `groups_claim`. */
    claim: z.string().min(1).optional(),
    value: z.string().min(1),
  })
  .strict();

/** Authorization parameters the gateway's callback cannot work with, and why. */
const UNSUPPORTED_AUTHORIZATION_PARAMS: Readonly<Record<string, string>> = {
  response_mode:
    "the gateway reads the provider's answer from the query of a GET to /sso/callback (form_post or fragment answers never reach it)",
  request: 'the gateway sends its authorization request as plain parameters, not as a request object',
  request_uri: 'the gateway sends its authorization request as plain parameters, not by reference',
};

/** A path under this gateway for the browser to land on after sign-in, or a loopback address. */
const redirectUri = z.url({
  protocol: /^https?$/,
  error: 'must be an http(s) URL such as http://127.0.0.1:8747/sso/callback',
});

/** One OpenID Connect provider keys may be issued through. */
export const ssoProviderSchema = z
  .object({
    /** The label of the "Sign in with …" button. */
    name: z.string().min(1).max(100).optional(),
    /** The issuer URL; its `/.well-known/openid-configuration` is read at start (discovery). */
    issuer: z.url({ protocol: /^https?$/, error: 'must be the issuer URL, such as https://login.example.com' }),
    client_id: z.string().min(1),
    /** The environment variable holding the client secret (the secret itself never goes in the file). */
    client_secret_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
      .refine((name) => !looksLikeSecret(name), SECRET_NOT_NAME),
    scopes: z.array(z.string().min(1)).default(['openid', 'email', 'profile', 'offline_access']),
    /** Extra parameters of the authorization request (e.g. Google's `access_type: offline`); never state, nonce or PKCE. */
    authorization_params: z
      .record(z.string().min(1), z.string())
      .refine(
        (params) =>
          !Object.keys(params).some((name) =>
            [
              'state',
              'nonce',
              'code_challenge',
              'code_challenge_method',
              'redirect_uri',
              'client_id',
              'response_type',
              'scope',
            ].includes(name),
          ),
        {
          message: 'may not set state, nonce, code_challenge(_method), redirect_uri, client_id, response_type or scope',
        },
      )
      .superRefine((params, context) => {
        for (const name of Object.keys(params))
          if (name in UNSUPPORTED_AUTHORIZATION_PARAMS)
            context.addIssue({
              code: 'custom',
              path: [name],
              message: `${name} is not supported: ${UNSUPPORTED_AUTHORIZATION_PARAMS[name]}`,
            });
      })
      .default({}),
    /** Where the provider sends the browser back; default `<gateway address>/sso/callback`. */
    redirect_uri: redirectUri.optional(),
    /** The claim that names the key's owner (`ownerUser`): a stable id such as `email` or `sub`. */
    user_claim: z.string().min(1).default('email'),
    groups_claim: z.string().min(1).default('groups'),
    mappings: z.array(mappingSchema).default([]),
    /** What a user who matches no mapping gets; absent: such a user is refused (403). */
    default_grant: grantSchema.optional(),
    /**
     * How many keys of this provider one user holds at once: a sign-in past it revokes the user's
     * oldest (ending its session). Each key has its own rpm_limit and tpm_limit.
     */
    max_active_keys_per_user: positiveInt.default(5),
    /** Lifetime of an issued key; absent: until revoked. */
    key_ttl_seconds: positiveInt.optional(),
    /** How often each session's refresh token is used to check the user still holds the mapped groups. */
    refresh_interval_seconds: positiveInt.default(900),
    /**
     * How long a session's membership may go unverified (its refreshes keep failing: the provider down,
     * refusing the gateway's client, or answering what fails the checks) before its key is suspended
     * until a refresh succeeds; 0: never suspended. Without a bound, a removed member keeps the key as
     * long as the checks fail.
     */
    max_unverified_seconds: z.number().int().min(0).default(86_400),
    /** Plain http issuers (a provider on this machine, tests): refused unless allowed here. */
    allow_insecure_http: z.boolean().default(false),
    /** The longest wait for each of the provider's answers (discovery, tokens); a wait past it is an outage. */
    timeout_seconds: z.number().int().min(1).max(120).default(10),
  })
  .strict();

/** The `sso` section: providers by id (`/sso/login?provider=<id>`). */
export const ssoSchema = z
  .object({
    providers: z
      .record(
        z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'provider ids are lower-case letters, digits, - and _'),
        ssoProviderSchema,
      )
      .default({}),
    /** How long a sign-in may take from the button to the provider's answer. */
    login_timeout_seconds: positiveInt.default(600),
  })
  .strict();

/** One configured OpenID provider. */
export type SsoProviderConfig = z.infer<typeof ssoProviderSchema>;
/** A claim mapping's grant. */
export type SsoGrantConfig = z.infer<typeof grantSchema>;
/** The `sso` section. */
export type SsoConfig = z.infer<typeof ssoSchema>;

/**
 * A warning per provider whose `redirect_uri` names a host the gateway's Host check refuses (neither
 * an IP address, localhost nor in `server.allowed_hosts`): the provider would send the browser back
 * there and the callback would be answered 403, after the user signed in at the provider.
 */
export function redirectHostWarnings(sso: SsoConfig, allowedHosts: readonly string[]): string[] {
  const answered = new HostAllowList();
  answered.replace(allowedHosts);
  return Object.entries(sso.providers).flatMap(([id, provider]) => {
    if (provider.redirect_uri === undefined) return [];
    const { host, hostname } = new URL(provider.redirect_uri);
    if (answered.allows(host)) return [];
    return [
      `sso.providers.${id}.redirect_uri: '${hostname}' is not in server.allowed_hosts, and the gateway answers only IP addresses, localhost and those names, so the provider's redirect back would be refused (403) after the user signed in; add '${hostname}' to server.allowed_hosts`,
    ];
  });
}

/** Whether the provider is asked for a refresh token (offline access), without which nothing is checked again. */
export function asksOfflineAccess(provider: SsoProviderConfig): boolean {
  return provider.scopes.includes('offline_access') || provider.authorization_params.access_type === 'offline';
}

/**
 * A warning per provider that asks for no refresh token and sets no `key_ttl_seconds`: its keys
 * would never expire and never be checked against the provider again (a user who leaves a mapped
 * group, or whose account is disabled there, keeps the key until someone revokes it).
 */
export function uncheckedKeyWarnings(sso: SsoConfig): string[] {
  return Object.entries(sso.providers).flatMap(([id, provider]) => {
    if (asksOfflineAccess(provider) || provider.key_ttl_seconds !== undefined) return [];
    return [
      `sso.providers.${id}: keys issued through ${provider.name ?? id} never expire and are never checked against it again, since it is asked for no refresh token and sets no key_ttl_seconds; add offline_access to sso.providers.${id}.scopes (or authorization_params: {access_type: offline} for Google) so that group membership is checked every refresh_interval_seconds, or set sso.providers.${id}.key_ttl_seconds so that keys expire`,
    ];
  });
}
