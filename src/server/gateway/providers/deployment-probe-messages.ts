import { withoutCredentials } from '../../../shared/gateway-api.js';
import type { UpstreamError } from './upstream-error.js';

/**
 * A connection test's findings worded for someone who can act on them: which address, which key,
 * which model. Provider text arrives already redacted (UpstreamError messages never hold a key).
 */

/** What the test knows of where it called and with what. */
export interface ProbeSubject {
  /** The address called (credentials removed before it is shown). */
  readonly url: string;
  /** The model as the upstream knows it. */
  readonly upstreamModel: string;
  /** Where the key came from, in words (`the key from $OPENAI_API_KEY`), or undefined when none was sent. */
  readonly key: string | undefined;
  readonly timeoutMs: number;
}

/** The address as a message shows it. */
export const shownUrl = (url: string): string => withoutCredentials(url);

/** The provider's own words from an UpstreamError message (`openai upstream returned 401 x: <words>`). */
function providerWords(error: UpstreamError): string {
  const match = /^\S+ upstream returned \d+(?: \S+)?: ([\s\S]*)$/.exec(error.message);
  return (match?.[1] ?? error.message).slice(0, 400);
}

/** Why a call got no HTTP answer: refused, unknown host, timed out, or another transport failure. */
function unreached(error: UpstreamError, subject: ProbeSubject): string {
  const url = shownUrl(subject.url);
  if (/ECONNREFUSED/.test(error.message))
    return `Connection refused at ${url}: nothing is listening there. Check the base URL (host and port) and that the server is running.`;
  if (/ENOTFOUND|EAI_AGAIN/.test(error.message)) return `Host not found for ${url}: check the base URL's host name.`;
  if (error.upstreamType === 'timeout' || error.upstreamType === 'aborted')
    return `No answer from ${url} within ${subject.timeoutMs / 1000} s: check the address, or whether the server is overloaded.`;
  if (error.upstreamType === 'request_not_sent') return error.message;
  return `Could not reach ${url}: ${error.message}`;
}

/** The message for a failed test call. */
export function failureMessage(error: UpstreamError, subject: ProbeSubject): string {
  const url = shownUrl(subject.url);
  const said = `The provider said: ${providerWords(error)}`;
  switch (error.status) {
    case 0:
      return unreached(error, subject);
    case 401:
    case 403:
      return subject.key === undefined
        ? `${error.status}: ${url} wants an API key and none is set: set the API key or its environment variable. ${said}`
        : `${error.status}: the provider rejected ${subject.key}: check the key (and that it may use this model). ${said}`;
    case 404:
      return `404 at ${url}: model '${subject.upstreamModel}' or the address was not found (OpenAI-style base URLs usually end in /v1). ${said}`;
    case 429:
      return `429: the address and key work, but the provider refused for rate limits or quota. ${said}`;
    default:
      return error.status >= 500
        ? `${error.status}: the provider failed to answer; try again later. ${said}`
        : `${error.status}: ${said}`;
  }
}

/**
 * What an answered list says of the key: accepted when one was sent; when none was, only that the list
 * needs none (a server that lists models to anyone may still refuse a chat without a key).
 */
const keyWord = (subject: ProbeSubject): string =>
  subject.key !== undefined ? `${subject.key} was accepted` : 'no key was sent (the model list needs none)';

/** The message for a model list that does not name the model. */
export function unlistedMessage(subject: ProbeSubject, count: number, closest: readonly string[]): string {
  const near = closest.length > 0 ? ` Closest listed names: ${closest.join(', ')}.` : '';
  return `Connected to ${shownUrl(subject.url)} and ${keyWord(subject)}, but model not found: '${subject.upstreamModel}' is not among the ${count} models it lists.${near} Check the upstream model name.`;
}

/** The message for a model list that names the model. */
export function listedMessage(subject: ProbeSubject, count: number): string {
  return `Connected to ${shownUrl(subject.url)}: ${keyWord(subject)} and '${subject.upstreamModel}' is among the ${count} models listed.`;
}

/** The message for a chat that was answered; `why` says why a chat was sent rather than the list read. */
export function chatMessage(subject: ProbeSubject, why: string | undefined): string {
  return `${why !== undefined ? `${why} ` : ''}Connected to ${shownUrl(subject.url)}: '${subject.upstreamModel}' answered a 1-token chat.`;
}
