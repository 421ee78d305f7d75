import type { DesktopConnection } from '../shared/desktop-api.js';

/**
 * Every request/response IPC channel between preload and main, declared once (after GitHub
 * Desktop's `RequestResponseChannels`): the preload and the handlers are both checked against it.
 */
export interface RequestResponseChannels {
  'connection:get': () => DesktopConnection;
  'external:open': (url: string) => boolean;
}

/** A channel name. */
export type Channel = keyof RequestResponseChannels;
