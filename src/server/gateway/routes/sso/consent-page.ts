import { hash } from 'node:crypto';
import { CONSENT_PATH } from '../../sso/loopback-consent.js';
import type { LoopbackConsentView } from '../../sso/sso.service.js';

/** The style of the gateway's own pages (allowed by hash in their CSP). */
export const PAGE_STYLE =
  'body{font-family:system-ui,sans-serif;margin:3rem auto;max-width:36rem;padding:0 1rem;line-height:1.5}' +
  'dt{font-weight:600}dd{margin:0 0 .5rem}code,strong{overflow-wrap:anywhere}' +
  'button{font:inherit;padding:.5rem 1.25rem;margin-right:.75rem}';

/**
 * Headers of the gateway's pages (this one, and a failed callback's): no script may run, no other page may frame it (an invisible frame over a
 * decoy would get the click), nothing is cached, and the address (with the request id) goes nowhere.
 */
export const CONSENT_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': `default-src 'none'; style-src 'sha256-${hash('sha256', PAGE_STYLE, 'base64')}'; base-uri 'none'; frame-ancestors 'none'`,
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
} as const;

/** The confirmation page: who asks (a port), for whose key, with what grant; Deny and Allow post its form. */
export function renderConsentPage(view: LoopbackConsentView): string {
  const rows: [string, string][] = [
    ['Account', `${view.user} (${view.providerName})`],
    ['Scopes', view.scopes.join(', ')],
    ['Team', view.team ?? 'none'],
    ['Models', view.models === null ? 'every allowed model' : view.models.join(', ')],
    ['Expires', view.keyTtlSeconds === null ? 'when revoked' : `after ${lifetime(view.keyTtlSeconds)}`],
  ];
  const listener = escapeHtml(view.listener);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Allow a program an API key? - Gatehouse</title><style>${PAGE_STYLE}</style></head><body><main>
<h1>Allow a program an API key?</h1>
<p>A program on this computer (listening on <strong>${listener}</strong>) asks for an API key for
<strong>${escapeHtml(view.user)}</strong>. Whatever listens there gets the key and can use it as you.</p>
<dl>${rows.map(([name, value]) => `<dt>${name}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>
<p>Allow only if you just started this sign-in yourself (with <code>npm run login</code>, for example) and it
named ${listener}. If you followed a link, or do not know the program, deny.</p>
<form method="post" action="${CONSENT_PATH}">
<input type="hidden" name="request" value="${escapeHtml(view.request)}">
<input type="hidden" name="token" value="${escapeHtml(view.token)}">
<button type="submit" name="decision" value="deny">Deny</button>
<button type="submit" name="decision" value="allow">Allow</button>
</form></main></body></html>
`;
}

function lifetime(seconds: number): string {
  if (seconds % 86_400 === 0) return plural(seconds / 86_400, 'day');
  if (seconds % 3_600 === 0) return plural(seconds / 3_600, 'hour');
  return plural(seconds, 'second');
}

const plural = (count: number, unit: string): string => `${count} ${unit}${count === 1 ? '' : 's'}`;

/** Text made safe to place in HTML, attribute values included. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
