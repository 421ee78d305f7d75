import { escapeHtml, PAGE_STYLE } from './consent-page.js';

/**
 * The page a browser gets when the gateway cannot send it back to where its sign-in started (the
 * state is unknown or expired, or another browser started it): what went wrong and what to do, in
 * the gateway's words only.
 */
export function renderCallbackErrorPage(message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in failed - Gatehouse</title><style>${PAGE_STYLE}</style></head><body><main>
<h1>Sign-in failed</h1>
<p>No API key was issued: ${escapeHtml(message)}.</p>
<p>Start the sign-in again from the page or program you began it in, in this browser, and finish it
within the time the gateway allows.</p>
</main></body></html>
`;
}
