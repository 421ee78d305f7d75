import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { uiContentSecurityPolicy } from '../../shared/content-security-policy.js';

/** What the browser UI learns before login: addresses only, never a credential. */
export interface UiBootstrap {
  readonly gatewayUrl: string;
  readonly storeUrl: string;
  readonly version: string;
}

/**
 * Serves the built renderer under `/ui/` (as LiteLLM serves its admin UI), with an SPA fallback and
 * `/ui/bootstrap.json` telling the page where the store listens.
 */
export async function registerUi(
  app: FastifyInstance,
  options: { dir: string | undefined; bootstrap: () => UiBootstrap },
): Promise<void> {
  app.get('/ui/bootstrap.json', { config: { skipHttpMetrics: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return options.bootstrap();
  });
  app.get('/', { config: { skipHttpMetrics: true } }, async (_request, reply) => reply.redirect('/ui/'));
  const dir = options.dir;
  if (!dir || !existsSync(join(dir, 'index.html'))) {
    app.get('/ui/', { config: { skipHttpMetrics: true } }, async (_request, reply) =>
      reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The UI is not built. Run `npm run build` (or `npm start`, which builds it) and restart.'),
    );
    return;
  }
  const indexHtml = readFileSync(join(dir, 'index.html'), 'utf8');
  await app.register(fastifyStatic, { root: dir, prefix: '/ui/', index: ['index.html'], wildcard: true });
  // One callback-style hook, since it runs on every response of the app (API calls included): an
  // async hook would cost a promise each time, and the URL test settles almost all of them at once.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!request.url.startsWith('/ui/')) {
      done(null, payload);
      return;
    }
    // Client-side routes (/ui/store/…) are answered with the app shell.
    if (
      reply.statusCode === 404 &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !/\.[a-z0-9]+$/i.test(request.url.split('?')[0] ?? '')
    ) {
      reply.code(200).type('text/html; charset=utf-8');
      payload = indexHtml;
    }
    // The page may call this origin and the store, wherever they listen (a non-loopback bind too).
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      reply.header('content-security-policy', uiContentSecurityPolicy(options.bootstrap().storeUrl));
    }
    done(null, payload);
  });
}
