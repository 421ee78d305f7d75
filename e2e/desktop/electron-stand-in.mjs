// A stand-in for the `electron` module, so the built main process (out/main/index.js) runs under plain
// Node where Electron's binary cannot: it reports what the main process asks of Electron as lines on
// stdout (`stand-in: {json}`) and takes what a user or the renderer would do from the test over IPC
// (see `onMessage` below).
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';

const report = (event, detail = {}) => process.stdout.write(`stand-in: ${JSON.stringify({ event, ...detail })}\n`);

let markReady;
const ready = new Promise((resolve) => (markReady = resolve));

/** An Electron event: `preventDefault` is all the main process calls on them. */
function electronEvent() {
  return {
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true;
    },
  };
}

/** Whether `pid` is a running stand-in (never signal a process that merely got a stale lock's number). */
function isStandIn(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('register-electron-stand-in');
  } catch {
    return false;
  }
}

class App extends EventEmitter {
  isPackaged = false;
  #paths = new Map();
  /**
   * Electron's lock is Chromium's process singleton, in the user data folder (made if missing): the
   * first process on that folder gets it; a later one gets false, and the holder its
   * `second-instance` (event, argv, workingDirectory, additionalData) before this call returns. Here:
   * a `SingletonLock` file naming the holder's pid, and the later process's message left beside it
   * with a SIGUSR2 to the holder.
   */
  requestSingleInstanceLock(additionalData) {
    const userData = this.getPath('userData');
    mkdirSync(userData, { recursive: true });
    const lock = join(userData, 'SingletonLock');
    const holder = existsSync(lock) ? Number(readFileSync(lock, 'utf8')) : undefined;
    if (holder !== undefined && holder !== process.pid && isStandIn(holder)) {
      const message = join(userData, `SingletonMessage-${process.pid}`);
      writeFileSync(message, JSON.stringify({ argv: process.argv, cwd: process.cwd(), additionalData }));
      process.kill(holder, 'SIGUSR2');
      report('singleInstanceLock', { userData, got: false });
      return false;
    }
    writeFileSync(lock, String(process.pid));
    process.on('exit', () => {
      if (existsSync(lock) && readFileSync(lock, 'utf8') === String(process.pid)) unlinkSync(lock);
    });
    process.on('SIGUSR2', () => {
      for (const name of readdirSync(userData).filter((n) => n.startsWith('SingletonMessage-'))) {
        const file = join(userData, name);
        const { argv, cwd, additionalData: data } = JSON.parse(readFileSync(file, 'utf8'));
        rmSync(file, { force: true });
        this.emit('second-instance', electronEvent(), argv, cwd, data);
      }
    });
    report('singleInstanceLock', { userData, got: true });
    return true;
  }
  enableSandbox() {
    report('enableSandbox');
  }
  whenReady() {
    return ready;
  }
  getAppPath() {
    return process.env.GATEHOUSE_STAND_IN_APP_PATH ?? process.cwd();
  }
  /**
   * Electron's folders (`userData`, `logs`, ...): under `GATEHOUSE_STAND_IN_PATHS`, else in the test's
   * data folder, which the test removes (a process it kills runs no exit handler), else in a
   * temporary folder, made only by what writes there and removed at exit.
   */
  getPath(name) {
    return this.#paths.get(name) ?? join(this.#pathsRoot(), name);
  }
  /** As Electron's: a folder that does not exist is refused with an error. */
  setPath(name, path) {
    if (!existsSync(path)) throw new Error(`Failed to set path: ${path} does not exist`);
    this.#paths.set(name, path);
    report('setPath', { name, path });
  }
  #pathsRoot() {
    const dataDir = process.env.GATEHOUSE_DATA_DIR;
    if (process.env.GATEHOUSE_STAND_IN_PATHS) return process.env.GATEHOUSE_STAND_IN_PATHS;
    if (dataDir !== undefined && isAbsolute(dataDir)) return join(dataDir, 'electron-stand-in');
    return temporaryPaths;
  }
  getVersion() {
    return '0.0.0-stand-in';
  }
  quit() {
    report('quit');
    const event = electronEvent();
    this.emit('before-quit', event);
    if (!event.defaultPrevented) this.exit(0);
  }
  exit(code) {
    report('exit', { code });
    process.exit(code);
  }
}

const temporaryPaths = join(tmpdir(), `gatehouse-stand-in-paths-${process.pid}`);
process.on('exit', () => rmSync(temporaryPaths, { recursive: true, force: true }));

export const app = new App();
// Ready on a later turn, as Electron is after the main module's first run.
setTimeout(markReady, 0);

const handlers = new Map();
export const ipcMain = {
  handle: (channel, handler) => {
    handlers.set(channel, handler);
    report('ipc.handle', { channel });
  },
};
export const nativeTheme = { shouldUseDarkColors: false };

/** One 1920×1080 display with a 40 px panel at the bottom. */
const primaryDisplay = {
  id: 1,
  scaleFactor: 1,
  bounds: { x: 0, y: 0, width: 1920, height: 1080 },
  workArea: { x: 0, y: 0, width: 1920, height: 1040 },
};
export const screen = {
  getAllDisplays: () => [primaryDisplay],
  getPrimaryDisplay: () => primaryDisplay,
};

/** The message box waiting for the test's `answer`, as one waits for the user. */
let pendingAnswer;
export const dialog = {
  showErrorBox: (title, message) => report('errorBox', { title, message }),
  // A modal box the user leaves open: the whole main process waits, as it does in Electron.
  showMessageBoxSync: (_window, options) => {
    report('messageBoxSync', { options: options ?? _window });
    const ms = Number(process.env.GATEHOUSE_STAND_IN_SYNC_DIALOG_MS ?? 4000);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    return 1;
  },
  showMessageBox: (window, options) => {
    const shown = options ?? window;
    report('messageBox', { options: shown });
    return new Promise((resolve) => (pendingAnswer = (response) => resolve({ response, checkboxChecked: false })));
  },
};
export const shell = {
  openExternal: async (url) => report('openExternal', { url }),
  showItemInFolder: (fullPath) => report('showItemInFolder', { path: fullPath }),
  openPath: async (path) => {
    report('openPath', { path });
    return '';
  },
};
export const session = {
  defaultSession: {
    setPermissionRequestHandler: () => {},
    setPermissionCheckHandler: () => {},
    webRequest: { onHeadersReceived: () => {} },
  },
};

/** A menu's items as the test reads them: labels, roles and submenus, never the click functions. */
function describeItems(items) {
  return items.map((item) => ({
    ...(item.label !== undefined ? { label: item.label } : {}),
    ...(item.role !== undefined ? { role: item.role } : {}),
    ...(item.type !== undefined ? { type: item.type } : {}),
    ...(item.enabled === false ? { enabled: false } : {}),
    ...(item.submenu
      ? { submenu: describeItems(Array.isArray(item.submenu) ? item.submenu : item.submenu.items) }
      : {}),
  }));
}

let applicationMenu;

/** The application menu's item with this label, at any depth. */
function menuItem(items, label) {
  for (const item of items) {
    if (item.label === label) return item;
    const submenu = Array.isArray(item.submenu) ? item.submenu : item.submenu?.items;
    const found = submenu && menuItem(submenu, label);
    if (found) return found;
  }
  return undefined;
}

export class Menu {
  constructor(items) {
    this.items = items;
  }
  static buildFromTemplate(template) {
    return new Menu(template);
  }
  static setApplicationMenu(menu) {
    applicationMenu = menu;
    report('applicationMenu', { items: menu ? describeItems(menu.items) : null });
  }
  popup() {
    report('contextMenu', { items: describeItems(this.items) });
  }
}

const windows = new Set();
/** The window the test's page events go to: the newest one. */
const lastWindow = () => [...windows].at(-1);

/** The page in a window: with unsaved changes it refuses to unload, as the UI's `beforeunload` does. */
class WebContents extends EventEmitter {
  unsaved = false;
  url = '';
  setWindowOpenHandler() {}
  getURL() {
    return this.url;
  }
  /** True when the page may go: Electron asks the main process (`will-prevent-unload`) when it refuses. */
  mayUnload() {
    if (!this.unsaved) return true;
    const event = electronEvent();
    this.emit('will-prevent-unload', event);
    if (event.defaultPrevented) return true;
    report('unload.cancelled');
    return false;
  }
  reload() {
    if (!this.mayUnload()) return;
    this.unsaved = false;
    report('reload');
  }
}

export class BrowserWindow extends EventEmitter {
  #destroyed = false;
  #maximized = false;
  #bounds;
  constructor(options) {
    super();
    this.webContents = new WebContents();
    windows.add(this);
    // Without a position Electron centres the window on the primary display.
    const width = options.width ?? 800;
    const height = options.height ?? 600;
    const area = primaryDisplay.workArea;
    this.#bounds = {
      x: options.x ?? area.x + Math.round((area.width - width) / 2),
      y: options.y ?? area.y + Math.round((area.height - height) / 2),
      width,
      height,
    };
    report('BrowserWindow', {
      webPreferences: { ...options.webPreferences, preload: undefined },
      bounds: this.#bounds,
    });
    app.emit('web-contents-created', {}, this.webContents);
  }
  getNormalBounds() {
    return { ...this.#bounds };
  }
  /** Where the user dragged or sized it (the test's `bounds` message). */
  setBounds(bounds) {
    this.#bounds = { ...this.#bounds, ...bounds };
    this.emit('move');
    this.emit('resize');
  }
  isMaximized() {
    return this.#maximized;
  }
  maximize() {
    report('maximize');
    this.#maximized = true;
    this.emit('maximize');
    this.emit('resize');
  }
  unmaximize() {
    this.#maximized = false;
    this.emit('unmaximize');
    this.emit('resize');
  }
  async loadURL(url) {
    this.webContents.url = url;
    const status = await fetch(url).then(
      (response) => response.status,
      (error) => `${error.cause?.code ?? error.message}`,
    );
    report('loadURL', { url, status });
    this.emit('ready-to-show');
  }
  show() {}
  focus() {
    report('window.focus');
  }
  restore() {}
  isMinimized() {
    return false;
  }
  isDestroyed() {
    return this.#destroyed;
  }
  close() {
    report('window.close');
    const event = electronEvent();
    this.emit('close', event);
    if (event.defaultPrevented || !this.webContents.mayUnload()) return;
    this.#gone();
  }
  destroy() {
    report('window.destroy');
    this.#gone();
  }
  #gone() {
    if (this.#destroyed) return;
    this.#destroyed = true;
    windows.delete(this);
    this.emit('closed');
    if (windows.size === 0) app.emit('window-all-closed');
  }
}

/**
 * What the test asks: a quit, a click on the window's ✕ or a menu item, a second launch, the user's answer, the renderer's IPC, a page event, the
 * window moved, sized or (un)maximised.
 */
async function onMessage(message) {
  if (message === 'quit') app.quit();
  // The user's click on the window's ✕.
  else if (message === 'closeWindow') lastWindow().close();
  else if (message.type === 'menu') menuItem(applicationMenu.items, message.label).click();
  else if (message === 'second-instance') app.emit('second-instance');
  else if (message.type === 'answer') {
    const answer = pendingAnswer;
    pendingAnswer = undefined;
    answer?.(message.response);
  } else if (message.type === 'unsaved') {
    lastWindow().webContents.unsaved = message.value;
    // Said, so a test can wait for the page's state before it acts (a signal does not queue behind it).
    report('unsaved', { value: message.value });
  } else if (message.type === 'reload') lastWindow().webContents.reload();
  else if (message.type === 'bounds') lastWindow().setBounds(message.bounds);
  else if (message.type === 'maximized') lastWindow()[message.value ? 'maximize' : 'unmaximize']();
  else if (message.type === 'webContents')
    lastWindow().webContents.emit(message.event, electronEvent(), ...message.args);
  else if (message.type === 'invoke') {
    try {
      const handler = handlers.get(message.channel);
      const result = await handler({ senderFrame: { url: message.url } }, ...(message.args ?? []));
      process.send({ type: 'invoked', id: message.id, result });
    } catch (error) {
      process.send({ type: 'invoked', id: message.id, error: error.message });
    }
  }
}
// One turn each, as a user's clicks are: messages that arrive together are emitted in one turn, and the
// main process's reaction to one (a promise's callback) must run before the next.
process.on('message', (message) => setTimeout(() => void onMessage(message), 0));
