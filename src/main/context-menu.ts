import { Menu, type BrowserWindow, type ContextMenuParams, type MenuItemConstructorOptions } from 'electron';

/** What a right click offers: editing in a text field, Copy on a selection, nothing elsewhere. */
export function contextMenuItems(
  params: Pick<ContextMenuParams, 'isEditable' | 'selectionText' | 'editFlags'>,
): MenuItemConstructorOptions[] {
  const flags = params.editFlags;
  if (params.isEditable)
    return [
      { role: 'cut', enabled: flags.canCut },
      { role: 'copy', enabled: flags.canCopy },
      { role: 'paste', enabled: flags.canPaste },
      { type: 'separator' },
      { role: 'selectAll', enabled: flags.canSelectAll },
    ];
  if (params.selectionText.trim() !== '') return [{ role: 'copy', enabled: flags.canCopy }];
  return [];
}

/** Electron shows no context menu of its own: without this, a right click in a text field does nothing. */
export function installContextMenu(window: BrowserWindow): void {
  window.webContents.on('context-menu', (_event, params) => {
    const items = contextMenuItems(params);
    if (items.length > 0) Menu.buildFromTemplate(items).popup({ window });
  });
}
