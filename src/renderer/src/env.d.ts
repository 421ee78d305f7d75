/// <reference types="vite/client" />
import type { DesktopApi } from '../../shared/desktop-api.js';

declare global {
  interface Window {
    /** The desktop app's preload bridge; absent in a browser. */
    readonly gatehouse?: DesktopApi;
  }
}

export {};
