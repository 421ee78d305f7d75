import { BrowserWindow, nativeTheme, type WebPreferences } from 'electron';
import { installContextMenu } from './context-menu.js';
import { promptBeforeUnload } from './unload-prompt.js';

/**
 * The one place that sets `webPreferences` (Electron's security checklist): every window gets
 * these, so no window can be opened with Node in its renderer by accident.
 */
export function secureWebPreferences(preload: string): WebPreferences {
  return {
    preload,
    sandbox: true,
    contextIsolation: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
  };
}

/**
 * Creates the main window, hidden until its first paint so it never flashes white in dark mode.
 * `onUnloadKept` runs when the user chose to keep unsaved changes over closing or reloading it,
 * `onUnloadAsked` when they are asked.
 */
export function createMainWindow(
  preload: string,
  onUnloadKept: () => void,
  onUnloadAsked: () => void = () => {},
): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 880,
    minHeight: 560,
    show: false,
    title: 'Gatehouse',
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#0f1115' : '#ffffff',
    autoHideMenuBar: true,
    webPreferences: secureWebPreferences(preload),
  });
  window.once('ready-to-show', () => window.show());
  promptBeforeUnload(window, onUnloadKept, onUnloadAsked);
  installContextMenu(window);
  return window;
}
