/**
 * The longest `Retry-After` the gateway leaves the official SDKs to sleep through before they resend.
 * They wait for all of it (OpenAI's with no ceiling, and a wait past 2^31 ms overflows its timer into
 * an immediate resend): past a minute, an answer also says `x-should-retry: false`, and the caller
 * decides from `Retry-After`.
 */
export const MAX_SDK_WAIT_SECONDS = 60;
