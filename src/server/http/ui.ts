import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { uiContentSecurityPolicy } from '../../shared/content-security-policy.js';
import { errorBody } from './errors.js';

/** What the browser UI learns before login: addresses only, never a credential. */
export interface UiBootstrap {
  readonly gatewayUrl: string;
  readonly storeUrl: string;
  readonly version: string;
}

/**
 * The bootstrap for a page loaded through `hostname` (the name the browser used, without the port):
 * servers bound to every interface are reached by whatever name the browser knows them by.
 */
export type UiBootstrapSource = (hostname: string) => UiBootstrap;

/**
 * Serves the built renderer under `/ui/` (as LiteLLM serves its admin UI), with an SPA fallback and
 * `/ui/bootstrap.json` telling the page where the store listens.
 */
export async function registerUi(
  app: FastifyInstance,
  options: { dir: string | undefined; bootstrap: UiBootstrapSource },
): Promise<void> {
  app.get('/', { config: { skipHttpMetrics: true } }, async (_request, reply) => reply.redirect('/ui/'));
  // Its own scope: the UI's hook and 404 handler apply to /ui/* only, so API requests pay for neither.
  await app.register((ui) => uiScope(ui, options), { prefix: '/ui' });
}

async function uiScope(
  ui: FastifyInstance,
  options: { dir: string | undefined; bootstrap: UiBootstrapSource },
): Promise<void> {
  ui.get('/bootstrap.json', { config: { skipHttpMetrics: true } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return options.bootstrap(request.hostname);
  });
  const dir = options.dir;
  if (!dir || !existsSync(join(dir, 'index.html'))) {
    ui.get('/', { config: { skipHttpMetrics: true } }, async (_request, reply) =>
      reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The UI is not built. Run `npm run build` (or `npm start`, which builds it) and restart.'),
    );
    return;
  }
  const appShell = appShellOf(join(dir, 'index.html'));
  await ui.register(fastifyStatic, { root: dir, prefix: '/', index: ['index.html'], wildcard: true });
  // Client-side routes (/ui/store/…) are answered with the app shell; a missing asset stays a 404.
  ui.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if ((request.method === 'GET' || request.method === 'HEAD') && !/\.[a-z0-9]+$/i.test(path)) {
      const html = appShell();
      if (html === undefined)
        return reply
          .code(503)
          .type('text/plain; charset=utf-8')
          .send('The UI build is missing (being rebuilt?). Reload when `npm run build` has finished.');
      return reply.code(200).type('text/html; charset=utf-8').send(html);
    }
    return reply
      .code(404)
      .type('application/json; charset=utf-8')
      .send(errorBody('not_found_error', `no route ${request.method} ${path}`));
  });
  // The page may call this origin and the store, wherever they listen (a non-loopback bind too).
  ui.addHook('onSend', (request, reply, payload, done) => {
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      reply.header('content-security-policy', uiContentSecurityPolicy(options.bootstrap(request.hostname).storeUrl));
      // Its addresses can carry a one-time sign-in hand-off (`/ui/sso/done?handoff=`): a link to
      // elsewhere must not take it along.
      reply.header('referrer-policy', 'no-referrer');
      // The CSP's frame-ancestors for browsers that predate it: no page may frame the UI (clickjacking).
      reply.header('x-frame-options', 'DENY');
    }
    // A file is what its extension says: a browser never guesses it into HTML or script.
    reply.header('x-content-type-options', 'nosniff');
    done(null, payload);
  });
}

/**
 * The app shell for client-side routes, read again when the file changes: a rebuild while the server
 * runs renames the bundle it names, and a shell kept from before would point every deep link at
 * assets that are gone. Undefined while the file is missing (a build empties the folder first).
 */
function appShellOf(file: string): () => string | undefined {
  let cached: { readonly mtimeMs: number; readonly size: number; readonly html: string } | undefined;
  return () => {
    try {
      const { mtimeMs, size } = statSync(file);
      if (cached === undefined || cached.mtimeMs !== mtimeMs || cached.size !== size)
        cached = { mtimeMs, size, html: readFileSync(file, 'utf8') };
      return cached.html;
    } catch {
      return undefined;
    }
  };
}
