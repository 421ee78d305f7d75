import { randomBytes } from 'node:crypto';
import type { Config } from '../server/config/schema.js';

/**
 * The environment the servers start with, so that the window holds a full-access store token. With
 * tokens in `store.auth.tokens` and no `STORE_TOKEN`, the store accepts only the configured ones and
 * the app has none of its own: the window, which must read and write every namespace as the user
 * does, would be refused everywhere. It gets one made for this run, held in memory only (never
 * written to the data folder, so nothing outside the window learns it), given to the store as
 * `STORE_TOKEN` would be: with full access, beside the configured tokens, whose grants stay as they are.
 */
export function withWindowStoreToken(config: Config, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { enabled, tokens } = config.store.auth;
  if (!enabled || tokens.length === 0 || env.STORE_TOKEN) return env;
  return { ...env, STORE_TOKEN: `st-window-${randomBytes(24).toString('base64url')}` };
}
