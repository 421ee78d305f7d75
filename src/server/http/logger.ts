import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import { pino } from 'pino';

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

/** Pino options: structured JSON at the given level, secrets redacted. */
function loggerOptions(level: string, name: string): pino.LoggerOptions {
  return {
    level,
    name,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      // Given serializers replace pino's defaults, its error serializer among them.
      err: pino.stdSerializers.err,
      // Only what identifies the request: never headers or bodies, which can hold keys and prompts.
      req: (req: { method: string; url: string; id: string }) => ({
        method: req.method,
        url: req.url.split('?')[0],
        id: req.id,
      }),
    },
  };
}

/** The field naming the request on every line it logs, Fastify's own lines and requestLog's alike. */
export const REQUEST_ID_LOG_LABEL = 'requestId';

/** How log lines are written: pino's JSON, or one readable line each for a person at a terminal. */
export type LogFormat = 'json' | 'text';

/** The variable that chooses the format whatever the output is (`json` for a collector reading a terminal's capture). */
export const LOG_FORMAT_VARIABLE = 'GATEHOUSE_LOG_FORMAT';
const LOG_FORMATS: readonly LogFormat[] = ['json', 'text'];

/** What is wrong with `GATEHOUSE_LOG_FORMAT`, when it is set to something else than a format. */
export function logFormatProblem(env: NodeJS.ProcessEnv): string | undefined {
  const value = env[LOG_FORMAT_VARIABLE];
  if (!value || (LOG_FORMATS as readonly string[]).includes(value)) return undefined;
  return `${LOG_FORMAT_VARIABLE} must be json or text (or unset: text at a terminal, json otherwise), got "${value}"`;
}

/**
 * The format for an output: as `GATEHOUSE_LOG_FORMAT` says, else text at a terminal and JSON when the
 * output is piped or redirected, where a log collector expects one JSON object a line.
 */
export function logFormat(isTTY: boolean | undefined, env: NodeJS.ProcessEnv): LogFormat {
  const chosen = env[LOG_FORMAT_VARIABLE];
  if (chosen === 'json' || chosen === 'text') return chosen;
  return isTTY === true ? 'text' : 'json';
}

const LEVEL_LABELS: Readonly<Record<number, string>> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/** The fields every line has, shown in the line's head or left out (pid and hostname say nothing at a terminal). */
const HEAD_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'name', 'msg']);

/** `key=value`, quoted as JSON when the value would not read as one word. */
function field(key: string, value: unknown): string {
  if (typeof value !== 'string') return `${key}=${JSON.stringify(value)}`;
  return `${key}=${/^[^\s"=]+$/.test(value) ? value : JSON.stringify(value)}`;
}

/**
 * One of pino's JSON lines (already redacted) as `WARN  09:01:47 gateway: message key=value ...`, with an
 * error's stack on the lines below it; a line that is not pino's JSON as it is.
 */
export function formatLogLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const level = LEVEL_LABELS[entry.level as number] ?? String(entry.level);
  const time = typeof entry.time === 'number' ? new Date(entry.time).toTimeString().slice(0, 8) : '';
  const name = typeof entry.name === 'string' ? `${entry.name}: ` : '';
  const parts = [`${level.padEnd(5)} ${time} ${name}${String(entry.msg ?? '')}`];
  let stack = '';
  for (const [key, value] of Object.entries(entry)) {
    if (HEAD_FIELDS.has(key)) continue;
    const error =
      key === 'err' && typeof value === 'object' && value !== null ? (value as { stack?: unknown }) : undefined;
    if (typeof error?.stack === 'string') stack = `\n${error.stack.replace(/^/gm, '    ')}`;
    else parts.push(field(key, value));
  }
  return `${parts.join(' ')}${stack}\n`;
}

/**
 * A synchronous destination writing each line as formatLogLine does: in the process, unlike
 * pino-pretty's transport, so no worker thread is started and the lines keep their order with the
 * start's own output.
 */
export function textLogDestination(
  write: (text: string) => void = (text) => process.stdout.write(text),
): pino.DestinationStream {
  return { write: (line: string) => write(formatLogLine(line)) };
}

/** Where every server logger also writes its (JSON, redacted) lines, when the process has set one. */
let copyDestination: pino.DestinationStream | undefined;

/**
 * Has every logger made from now on write its lines to `destination` too, as pino's JSON whatever
 * stdout's format: the desktop app's log file, where a launch without a terminal would lose them.
 */
export function alsoWriteLogsTo(destination: pino.DestinationStream | undefined): void {
  copyDestination = destination;
}

/** pino's destination for this process's stdout: its own (JSON) unless the format is text; plus the copy. */
function defaultDestination(): pino.DestinationStream | undefined {
  const stdout = logFormat(process.stdout.isTTY, process.env) === 'text' ? textLogDestination() : undefined;
  const copy = copyDestination;
  if (copy === undefined) return stdout;
  const write = stdout ? (line: string) => stdout.write(line) : (line: string) => process.stdout.write(line);
  return {
    write: (line: string) => {
      write(line);
      copy.write(line);
    },
  };
}

/** A server's logger at the given level, or none when the level is `silent`; written to stdout unless `destination` is given. */
export function serverLogger(
  level: string,
  name: string,
  destination: pino.DestinationStream | undefined = defaultDestination(),
): FastifyBaseLogger | undefined {
  if (level === 'silent') return undefined;
  const options = loggerOptions(level, name);
  return destination === undefined ? pino(options) : pino(options, destination);
}

/**
 * Whether Fastify gets the logger itself, for its lines per request. Only when debugging: with a
 * logger, Fastify makes and checks a child logger for every request and listens for the end of every
 * response, some 4 µs of CPU per request that would buy nothing at the other levels. Below debug,
 * Fastify's own warnings about one request (a reply sent twice) go unlogged: they point at a bug in a
 * route, which the tests are there to catch, and the servers' own errors are logged through requestLog.
 */
export const logsEveryRequest = (level: string): boolean => level === 'debug' || level === 'trace';

/** The logger for what one request logs (errors mostly), bound to its id as each of its lines is. */
export function requestLog(request: FastifyRequest): FastifyBaseLogger {
  return request.server.log.child({ [REQUEST_ID_LOG_LABEL]: request.id });
}

/** Status logged for a response that closed before it was completely sent (nginx's, as usage records it). */
const CLIENT_CLOSED_STATUS = 499;

/**
 * Fastify's lines per request (arrival, completion), at `debug` as the log level's documentation
 * promises (Fastify writes them at `info`), and a completion line for a request whose client left
 * too: Fastify logs completion when the response finishes, which a response the client closed never
 * does, so such a request would show an arrival and no end. Only in use when logsEveryRequest.
 */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug(
      { req: request, remoteAddress: request.socket.remoteAddress, userAgent: request.headers['user-agent'] },
      'incoming request',
    );
    const response = reply.raw;
    response.once('close', () => {
      if (response.writableFinished) return;
      reply.log.debug(
        { res: { statusCode: CLIENT_CLOSED_STATUS }, responseTime: reply.elapsedTime, clientClosed: true },
        'request completed',
      );
    });
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    // A response that failed while it was written: an error, whatever the level.
    if (error) super.requestCompleted(error, request, reply);
    else reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
