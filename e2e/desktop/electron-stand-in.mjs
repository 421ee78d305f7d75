// A stand-in for the `electron` module, so the built main process (out/main/index.js) runs under plain
// Node where Electron's binary cannot: it reports what the main process asks of Electron as lines on
// stdout (`stand-in: {json}`) and takes what a user or the renderer would do from the test over IPC
// (see `onMessage` below).
import { EventEmitter } from 'node:events';

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

class App extends EventEmitter {
  isPackaged = false;
  requestSingleInstanceLock() {
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
export const shell = { openExternal: async (url) => report('openExternal', { url }) };
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

export class Menu {
  constructor(items) {
    this.items = items;
  }
  static buildFromTemplate(template) {
    return new Menu(template);
  }
  static setApplicationMenu(menu) {
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
  constructor(options) {
    super();
    this.webContents = new WebContents();
    windows.add(this);
    report('BrowserWindow', { webPreferences: { ...options.webPreferences, preload: undefined } });
    app.emit('web-contents-created', {}, this.webContents);
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
  focus() {}
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

/** What the test asks: a quit, a second launch, the user's answer, the renderer's IPC, a page event. */
async function onMessage(message) {
  if (message === 'quit') app.quit();
  else if (message === 'second-instance') app.emit('second-instance');
  else if (message.type === 'answer') {
    const answer = pendingAnswer;
    pendingAnswer = undefined;
    answer?.(message.response);
  } else if (message.type === 'unsaved') lastWindow().webContents.unsaved = message.value;
  else if (message.type === 'reload') lastWindow().webContents.reload();
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
