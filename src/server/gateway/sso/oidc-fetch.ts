import { AsyncLocalStorage } from 'node:async_hooks';
import type { CustomFetch } from 'openid-client';

/** A token endpoint's answer as it arrived, before openid-client checked it. */
export interface TokenAnswer {
  readonly status: number;
  readonly contentType: string | null;
  readonly body: string;
}

/** One grant's exchange with the token endpoint: the answer it got, or the one to give it again. */
export interface GrantCall {
  answer?: TokenAnswer;
  readonly replay?: TokenAnswer;
}

const calls = new AsyncLocalStorage<GrantCall>();

/** Runs `grant` with `call` recording the token endpoint's answer (or replaying `call.replay` instead of asking again). */
export function withGrantCall<T>(call: GrantCall, grant: () => Promise<T>): Promise<T> {
  return calls.run(call, grant);
}

/** The refresh token in a token endpoint's answer, if it carried one. */
export function refreshTokenIn(answer: TokenAnswer | undefined): string | undefined {
  if (answer === undefined || answer.status !== 200) return undefined;
  try {
    const token = (JSON.parse(answer.body) as { refresh_token?: unknown }).refresh_token;
    return typeof token === 'string' && token !== '' ? token : undefined;
  } catch {
    return undefined;
  }
}

function isGrantRequest(options: Parameters<CustomFetch>[1]): boolean {
  if (options.method !== 'POST' || options.body === undefined || options.body === null) return false;
  if (!(options.body instanceof URLSearchParams) && typeof options.body !== 'string') return false;
  return new URLSearchParams(options.body).has('grant_type');
}

/**
 * openid-client's fetch. It validates a token answer before returning it, so a grant that throws may
 * have been answered: a refresh token the provider rotated would be lost with the exception, and the
 * next use of the old one refused. Inside a grant call, the answer is recorded as it arrives; and an
 * answer recorded once can be checked again (against a fresh JWKS) without asking the provider twice,
 * which would spend the code or the refresh token.
 */
export const grantFetch: CustomFetch = async (url, options) => {
  const call = calls.getStore();
  if (call === undefined || !isGrantRequest(options)) return fetch(url, options);
  if (call.replay !== undefined)
    return new Response(call.replay.body, {
      status: call.replay.status,
      headers: call.replay.contentType ? { 'content-type': call.replay.contentType } : {},
    });
  const response = await fetch(url, options);
  call.answer = {
    status: response.status,
    contentType: response.headers.get('content-type'),
    body: await response.clone().text(),
  };
  return response;
};
