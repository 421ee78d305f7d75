import type { z } from 'zod';
import type { Connection } from '../connection/connection.js';

/** The two services the UI talks to. */
export type Service = 'gateway' | 'store';

/** A failed call, carrying the server's own message (the shared error shape) when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly requestId?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Query values; undefined, empty and zero-like "unused" selectors are left out by the caller. */
export type Query = Readonly<Record<string, string | number | boolean | undefined>>;

/** Options of one request. */
export interface RequestOptions<T> {
  readonly method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly query?: Query;
  readonly body?: unknown;
  readonly schema: z.ZodType<T>;
  readonly signal?: AbortSignal;
  /** Headers beside the credentials (`If-Match`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** An answer with the ETag it came with (absent when the server sent none). */
export interface TaggedAnswer<T> {
  readonly data: T;
  readonly etag: string | undefined;
}

/** Typed access to both services with the connection's credentials. */
export interface ApiClient {
  readonly connection: Connection;
  request<T>(service: Service, path: string, options: RequestOptions<T>): Promise<T>;
  /** As `request`, with the answer's ETag: what a later write sends back as `If-Match`. */
  tagged<T>(service: Service, path: string, options: RequestOptions<T>): Promise<TaggedAnswer<T>>;
  /** Opens a streaming response (server-sent events) with the same authentication. */
  open(
    service: Service,
    path: string,
    signal: AbortSignal,
    headers?: Readonly<Record<string, string>>,
  ): Promise<Response>;
  /** The base address of a service as this page reaches it. */
  baseUrl(service: Service): string;
}

const SERVICE_NAMES: Record<Service, string> = { gateway: 'gateway', store: 'store' };

/**
 * How long a read (GET) may take, its body included, before the UI stops waiting and says so: well
 * above the slowest legitimate read (a month of usage, a page of 1,000 documents).
 */
export const READ_TIMEOUT_MS = 30_000;

/** A read's own deadline beside the caller's signal; `expired` tells a timeout from the caller's abort. */
interface Deadline {
  readonly signal: AbortSignal;
  readonly expired: () => boolean;
  readonly clear: () => void;
}

function readDeadline(callerSignal: AbortSignal | undefined): Deadline {
  const controller = new AbortController();
  let expired = false;
  const abort = (): void => controller.abort();
  if (callerSignal?.aborted) abort();
  callerSignal?.addEventListener('abort', abort, { once: true });
  const timer = setTimeout(() => {
    expired = true;
    abort();
  }, READ_TIMEOUT_MS);
  return {
    signal: controller.signal,
    expired: () => expired,
    clear: () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', abort);
    },
  };
}

function buildUrl(base: string, path: string, query: Query | undefined): string {
  const url = new URL(path, base);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
  }
  return url.toString();
}

async function errorFrom(response: Response, service: Service): Promise<ApiError> {
  const requestId = response.headers.get('x-request-id') ?? undefined;
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: { type?: string; message?: string } | string; message?: string };
    if (typeof body.error === 'object' && body.error?.message) {
      return new ApiError(response.status, body.error.type ?? 'error', body.error.message, requestId);
    }
    if (body.message) return new ApiError(response.status, 'error', body.message, requestId);
  } catch {
    // not JSON: fall through to the status line
  }
  const detail = text && text.length < 300 ? `: ${text}` : '';
  return new ApiError(
    response.status,
    'error',
    `The ${SERVICE_NAMES[service]} answered ${response.status} ${response.statusText}${detail}`,
    requestId,
  );
}

/** Options of {@link createApiClient}. */
export interface ApiClientOptions {
  /**
   * Called for every 401: the master key or store token stopped working (rotated, revoked, server
   * restarted with new ones). The request still fails with its error afterwards.
   */
  readonly onUnauthorized?: (service: Service, error: ApiError) => void;
}

/** Creates the client. The gateway is this page's own origin; the store is reached over CORS. */
export function createApiClient(connection: Connection, options: ApiClientOptions = {}): ApiClient {
  const baseUrl = (service: Service): string => (service === 'gateway' ? window.location.origin : connection.storeUrl);
  const authorization = (service: Service): Record<string, string> => {
    const secret = service === 'gateway' ? connection.masterKey : connection.storeToken;
    return secret ? { authorization: `Bearer ${secret}` } : {};
  };

  // Every request and stream fails through here, so a lost credential is noticed in one place.
  const failure = async (response: Response, service: Service): Promise<ApiError> => {
    const error = await errorFrom(response, service);
    if (response.status === 401) options.onUnauthorized?.(service, error);
    return error;
  };

  const send = async (service: Service, url: string, init: RequestInit): Promise<Response> => {
    try {
      return await fetch(url, {
        ...init,
        headers: { ...authorization(service), ...(init.headers as Record<string, string> | undefined) },
      });
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new ApiError(0, 'network_error', `Cannot reach the ${service} at ${baseUrl(service)}. Is it running?`);
    }
  };

  const requestOnce = async <T>(
    service: Service,
    path: string,
    method: string,
    options: RequestOptions<T>,
    signal: AbortSignal | undefined,
  ): Promise<TaggedAnswer<T>> => {
    const hasBody = options.body !== undefined;
    const response = await send(service, buildUrl(baseUrl(service), path, options.query), {
      method,
      signal,
      headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...options.headers },
      body: hasBody ? JSON.stringify(options.body) : undefined,
    });
    if (!response.ok) throw await failure(response, service);
    const text = await response.text();
    const parsed = options.schema.safeParse(text ? JSON.parse(text) : {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue ? `${issue.path.join('.') || '(body)'}: ${issue.message}` : 'unexpected shape';
      throw new ApiError(
        response.status,
        'invalid_response',
        `Unexpected answer from ${method} ${path} (${where})`,
        response.headers.get('x-request-id') ?? undefined,
      );
    }
    return { data: parsed.data, etag: response.headers.get('etag') ?? undefined };
  };

  const exchange = async <T>(service: Service, path: string, options: RequestOptions<T>): Promise<TaggedAnswer<T>> => {
    const method = options.method ?? 'GET';
    // A read that never answers would leave its screen loading for good. A write is never given up
    // on here: the server may still carry it out, and the UI would then say it failed.
    const deadline = method === 'GET' ? readDeadline(options.signal) : undefined;
    try {
      return await requestOnce(service, path, method, options, deadline?.signal ?? options.signal);
    } catch (error) {
      if (!deadline?.expired()) throw error;
      throw new ApiError(
        0,
        'timeout',
        `The ${SERVICE_NAMES[service]} did not answer ${method} ${path} within ${READ_TIMEOUT_MS / 1000} s.`,
      );
    } finally {
      deadline?.clear();
    }
  };

  return {
    connection,
    baseUrl,
    async request(service, path, options) {
      return (await exchange(service, path, options)).data;
    },
    tagged: exchange,
    async open(service, path, signal, headers = {}) {
      const response = await send(service, buildUrl(baseUrl(service), path, undefined), {
        signal,
        headers: { accept: 'text/event-stream', ...headers },
      });
      if (!response.ok) throw await failure(response, service);
      return response;
    },
  };
}
