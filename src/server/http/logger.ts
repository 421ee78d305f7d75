import type { FastifyServerOptions } from 'fastify';

/** Header and body paths that may hold secrets; pino replaces them before anything is written. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  '*.apiKey',
  '*.api_key',
  '*.token',
  '*.masterKey',
];

/** Logger options: structured JSON at the given level, secrets redacted, off when level is `silent`. */
export function loggerOptions(level: string, name: string): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    name,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      // Only what identifies the request: never headers or bodies, which can hold keys and prompts.
      req: (req: { method: string; url: string; id: string }) => ({
        method: req.method,
        url: req.url.split('?')[0],
        id: req.id,
      }),
    },
  };
}
