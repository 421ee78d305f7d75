// A stand-in for the `electron` module, so the built main process (out/main/index.js) runs under plain
// Node where Electron's binary cannot: it reports what the main process asks of Electron as lines on
// stdout (`stand-in: {json}`) and takes `quit` and `second-instance` from the test over IPC.
import { EventEmitter } from 'node:events';

const report = (event, detail = {}) => process.stdout.write(`stand-in: ${JSON.stringify({ event, ...detail })}\n`);

let markReady;
const ready = new Promise((resolve) => (markReady = resolve));

class App extends EventEmitter {
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
    const event = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
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

export const ipcMain = { handle: (channel) => report('ipc.handle', { channel }) };
export const nativeTheme = { shouldUseDarkColors: false };
export const dialog = {
  showErrorBox: (title, message) => report('errorBox', { title, message }),
  showMessageBoxSync: () => 0,
};
export const shell = { openExternal: async (url) => report('openExternal', { url }) };
export const session = {
  defaultSession: {
    setPermissionRequestHandler: () => {},
    setPermissionCheckHandler: () => {},
    webRequest: { onHeadersReceived: () => {} },
  },
};

const windows = new Set();

export class BrowserWindow extends EventEmitter {
  #destroyed = false;
  constructor(options) {
    super();
    this.webContents = new EventEmitter();
    this.webContents.setWindowOpenHandler = () => {};
    windows.add(this);
    report('BrowserWindow', { webPreferences: { ...options.webPreferences, preload: undefined } });
    app.emit('web-contents-created', {}, this.webContents);
  }
  async loadURL(url) {
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
    this.#destroyed = true;
    windows.delete(this);
    this.emit('closed');
    if (windows.size === 0) app.emit('window-all-closed');
  }
}

process.on('message', (message) => {
  if (message === 'quit') app.quit();
  else if (message === 'second-instance') app.emit('second-instance');
});
