import type { FastifyBaseLogger } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];
type LogArgs = Parameters<FastifyBaseLogger['info']>;

/**
 * A request logger that creates its pino child only when something is logged. Fastify makes a child
 * per request; with redaction configured, that costs more than the rest of the gateway's own
 * per-request work, and almost every request logs nothing.
 */
class LazyRequestLogger implements FastifyBaseLogger {
  private instance: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    this.instance ??= this.parent.child(this.bindings, this.options);
    return this.instance;
  }

  get level(): string {
    return this.instance?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  fatal(...args: LogArgs): void {
    (this.logger.fatal as (...a: LogArgs) => void)(...args);
  }

  error(...args: LogArgs): void {
    (this.logger.error as (...a: LogArgs) => void)(...args);
  }

  warn(...args: LogArgs): void {
    (this.logger.warn as (...a: LogArgs) => void)(...args);
  }

  info(...args: LogArgs): void {
    (this.logger.info as (...a: LogArgs) => void)(...args);
  }

  debug(...args: LogArgs): void {
    (this.logger.debug as (...a: LogArgs) => void)(...args);
  }

  trace(...args: LogArgs): void {
    (this.logger.trace as (...a: LogArgs) => void)(...args);
  }

  silent(...args: LogArgs): void {
    (this.logger.silent as (...a: LogArgs) => void)(...args);
  }

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}

/** The child logger factory of the gateway's routes (encapsulated: other apps keep Fastify's default). */
export function lazyChildLoggerFactory(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildOptions,
): FastifyBaseLogger {
  return new LazyRequestLogger(logger, bindings, options);
}
