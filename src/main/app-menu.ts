import { Menu, type MenuItemConstructorOptions } from 'electron';

/** The Help menu's item that shows the log file in the file manager. */
export const SHOW_LOGS_LABEL = 'Show Logs';

/**
 * The application menu: Electron's default adds Help links to Electron's own site and the developer
 * tools. This one keeps what the window needs: the Edit roles (on macOS, copy and paste shortcuts in
 * text fields work only through them), reload and zoom, and the developer tools only when the app
 * runs from a checkout rather than a package; and Help → Show Logs when there is a log file.
 */
export function installAppMenu(packaged: boolean, showLogs?: () => void): void {
  const mac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(mac ? [{ role: 'appMenu' } as const] : []),
    { role: 'fileMenu' },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        ...(mac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
        { role: 'delete' },
        { type: 'separator' },
        { role: 'selectAll' },
      ],
    },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        { role: 'forceReload' },
        ...(packaged ? [] : [{ role: 'toggleDevTools' } as const]),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
  ];
  // A plain Help menu, not the `help` role: that role is where Electron's own Help links would go.
  if (showLogs) template.push({ label: 'Help', submenu: [{ label: SHOW_LOGS_LABEL, click: showLogs }] });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
