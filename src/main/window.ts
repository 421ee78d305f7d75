import { app, BrowserWindow, nativeTheme, screen, type WebPreferences } from 'electron';
import { join } from 'node:path';
import { installContextMenu } from './context-menu.js';
import { promptBeforeUnload } from './unload-prompt.js';
import {
  DEFAULT_WINDOW_SIZE,
  MIN_WINDOW_SIZE,
  placeWindow,
  readWindowState,
  writeWindowState,
  type WindowState,
} from './window-state.js';

/** How long the window must stay put after a move or resize before its place is saved. */
const SAVE_STATE_DELAY_MS = 500;

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
 * Creates the main window, hidden until its first paint so it never flashes white in dark mode, where
 * the last one was (its size, position and maximised state, kept while it is on a display).
 * `onUnloadKept` runs when the user chose to keep unsaved changes over closing or reloading it,
 * `onUnloadAsked` when they are asked.
 */
export function createMainWindow(
  preload: string,
  onUnloadKept: () => void,
  onUnloadAsked: () => void = () => {},
): BrowserWindow {
  const stateFile = join(app.getPath('userData'), 'window-state.json');
  const placement = placeWindow(
    readWindowState(stateFile),
    screen.getAllDisplays().map((display) => display.workArea),
  );
  const window = new BrowserWindow({
    ...(placement.bounds ?? DEFAULT_WINDOW_SIZE),
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    show: false,
    title: 'Gatehouse',
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#0f1115' : '#ffffff',
    autoHideMenuBar: true,
    webPreferences: secureWebPreferences(preload),
  });
  window.once('ready-to-show', () => {
    // Before the first show: maximize() shows a hidden window itself, before its first paint.
    if (placement.maximized) window.maximize();
    window.show();
  });
  saveStateAsItChanges(window, stateFile);
  promptBeforeUnload(window, onUnloadKept, onUnloadAsked);
  installContextMenu(window);
  return window;
}

/**
 * Saves the window's place to `file` shortly after each move, resize or (un)maximise, so a crash keeps
 * the last one, and when it closes. Read at each change, as `destroy()` (a quit that does not ask)
 * closes the window without a 'close' event, and its bounds cannot be read once it is gone.
 */
function saveStateAsItChanges(window: BrowserWindow, file: string): void {
  let latest: WindowState | undefined;
  let timer: NodeJS.Timeout | undefined;
  const save = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (!latest) return;
    try {
      writeWindowState(file, latest);
    } catch (error) {
      process.stderr.write(
        `gatehouse: could not save the window's size and position to ${file}: ${(error as Error).message}\n`,
      );
    }
    latest = undefined;
  };
  const changed = (): void => {
    if (window.isDestroyed()) return;
    // The normal bounds even while maximised, minimised or full screen: what un-maximising returns to.
    latest = { bounds: window.getNormalBounds(), maximized: window.isMaximized() };
    clearTimeout(timer);
    timer = setTimeout(save, SAVE_STATE_DELAY_MS);
    // A pending save never keeps a quitting app alive; 'closed' writes it.
    timer.unref();
  };
  window.on('resize', changed);
  window.on('move', changed);
  window.on('maximize', changed);
  window.on('unmaximize', changed);
  window.on('close', changed);
  window.on('closed', save);
}
