import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazyChildLoggerFactory } from '../../../src/server/gateway/routes/lazy-request-logger.js';

/** A parent logger recording which children were made and what they logged. */
function recordingLogger(
  bindings: Record<string, unknown> = {},
  lines: Array<[string, Record<string, unknown>, unknown[]]> = [],
  made: { count: number } = { count: 0 },
): FastifyBaseLogger & { lines: typeof lines; made: typeof made } {
  const log =
    (level: string) =>
    (...args: unknown[]) =>
      void lines.push([level, bindings, args]);
  return {
    level: 'info',
    lines,
    made,
    fatal: log('fatal'),
    error: log('error'),
    warn: log('warn'),
    info: log('info'),
    debug: log('debug'),
    trace: log('trace'),
    silent: () => undefined,
    child(childBindings: Record<string, unknown>) {
      made.count += 1;
      return recordingLogger({ ...bindings, ...childBindings }, lines, made);
    },
  } as unknown as FastifyBaseLogger & { lines: typeof lines; made: typeof made };
}

describe('lazy request logger', () => {
  it('creates the child only when something is logged, with the request bindings', () => {
    const parent = recordingLogger();
    const logger = lazyChildLoggerFactory(parent, { reqId: 'r-1' }, {});
    expect(parent.made.count).toBe(0);
    expect(logger.level).toBe('info');
    logger.error({ route: '/v1/x' }, 'boom');
    logger.warn('again');
    expect(parent.made.count).toBe(1);
    expect(parent.lines).toEqual([
      ['error', { reqId: 'r-1' }, [{ route: '/v1/x' }, 'boom']],
      ['warn', { reqId: 'r-1' }, ['again']],
    ]);
  });
});
