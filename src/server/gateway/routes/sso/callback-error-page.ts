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

/** A configured provider as a failure's reader may see it: its display name stands for its address. */
export interface ProviderName {
  readonly issuer: string;
  readonly name: string;
}

const EMAIL = String.raw`[^\s"'(),;<>@/]+@[^\s"'(),;<>@/]+\.[^\s"'(),;<>@/]*[^\s"'(),;<>@/.]`;

/**
 * A failed sign-in's reason as it may leave the gateway: `/sso/failures/{ref}` answers anyone holding
 * the reference (it sits in the address bar and the history), and a loopback `return_to`'s program
 * gets `error_description` without the user having allowed anything, so neither may carry the
 * account's e-mail address nor where the provider lives inside the network. The remedy stays; the
 * gateway's log keeps the whole reason for the admin.
 */
export function publicFailureMessage(message: string, providers: readonly ProviderName[]): string {
  let text = message
    .replace(new RegExp(String.raw`/internal/users/${EMAIL}`, 'g'), '/internal/users/{user id}')
    .replace(new RegExp(String.raw`e-mail address ${EMAIL}`, 'g'), "account's e-mail address")
    .replace(/"[^"]*@[^"]*"/g, "the account's value")
    .replace(new RegExp(String.raw`\bown ${EMAIL}`, 'g'), 'own it')
    .replace(new RegExp(EMAIL, 'g'), 'the account');
  for (const provider of providers)
    text = text.split(`discovery of ${provider.issuer} `).join(`discovery of ${provider.name} `);
  // The system's words for a refused or unanswered connection name the address it tried.
  return text.replace(/\b(E[A-Z]+) (\[[0-9a-fA-F:.]+\]|[\w.-]+):\d+/g, '$1');
}
