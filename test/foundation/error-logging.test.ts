import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installErrorHandling } from '../../src/server/http/error-handler.js';
import { AppError } from '../../src/server/http/errors.js';

interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly err?: { readonly stack?: string };
  readonly [field: string]: unknown;
}

/** The shared error handler's log: typed 5xx answers are warnings, anything unexpected an error with its stack. */
describe('server errors in the log', () => {
  const lines: LogLine[] = [];
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify({
      logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line) as LogLine) } },
    });
    installErrorHandling(app);
    app.get('/upstream', async () => {
      throw new AppError('upstream_error', 'openai upstream returned 503 server_error: overloaded');
    });
    app.get('/unavailable', async () => {
      throw new AppError('service_unavailable', 'database is closing');
    });
    app.get('/bug', async () => {
      throw new TypeError('cannot read properties of undefined');
    });
    await app.ready();
  });
  afterAll(async () => app.close());

  const logOf = async (url: string) => {
    lines.length = 0;
    const response = await app.inject({ method: 'GET', url });
    return { response, logged: lines.filter((line) => line.level >= 40) };
  };

  it('logs a provider failure at warn, naming it, without a stack', async () => {
    const { response, logged } = await logOf('/upstream');
    expect(response.statusCode).toBe(502);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      level: 40,
      msg: 'upstream failure: openai upstream returned 503 server_error: overloaded',
      status: 502,
      route: '/upstream',
    });
    expect(logged[0]!.err).toBeUndefined();
  });

  it('logs other typed 5xx answers at warn with their type', async () => {
    const { response, logged } = await logOf('/unavailable');
    expect(response.statusCode).toBe(503);
    expect(logged).toEqual([
      expect.objectContaining({ level: 40, msg: 'service_unavailable: database is closing', status: 503 }),
    ]);
  });

  it('logs an unexpected exception at error with its stack, and answers 500 without internals', async () => {
    const { response, logged } = await logOf('/bug');
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      error: { type: 'internal_error', message: 'internal error; see the server log for this request id', code: 500 },
    });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 50, msg: 'unexpected error', status: 500, route: '/bug', method: 'GET' });
    expect(logged[0]!.err?.stack).toContain('TypeError: cannot read properties of undefined');
  });
});
