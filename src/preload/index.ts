import { contextBridge, ipcRenderer } from 'electron';
import type { DesktopApi } from '../shared/desktop-api.js';
import type { Channel, RequestResponseChannels } from '../main/ipc-channels.js';

// Sandboxed preload: only `electron` is imported at run time (the type imports vanish).

function invoke<C extends Channel>(
  channel: C,
  ...args: Parameters<RequestResponseChannels[C]>
): Promise<ReturnType<RequestResponseChannels[C]>> {
  return ipcRenderer.invoke(channel, ...args) as Promise<ReturnType<RequestResponseChannels[C]>>;
}

const api = {
  platform: process.platform,
  getConnection: () => invoke('connection:get'),
  openExternal: (url: string) => invoke('external:open', url),
} satisfies DesktopApi;

contextBridge.exposeInMainWorld('gatehouse', api);
