import type { Registry } from 'prom-client';
import type { Config } from '../config/schema.js';
import type { DatabaseHandle } from '../db/connection.js';

/** What the gateway routes need from the process; passed as the routes plugin's options. */
export interface GatewayContext {
  readonly config: Config;
  readonly database: DatabaseHandle;
  /** The master key for /internal/* (compare with secretsEqual, never log it). */
  readonly masterKey: string;
  /** The gateway's metrics registry (default process metrics already registered). */
  readonly registry: Registry;
}
