import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { z } from 'zod';
import type { Channel, RequestResponseChannels } from './ipc-channels.js';

type Handler<C extends Channel> = (
  ...args: Parameters<RequestResponseChannels[C]>
) => ReturnType<RequestResponseChannels[C]>;

/** Decides whether an IPC message comes from one of the app's own pages. */
export type SenderCheck = (senderUrl: string) => boolean;

/**
 * Registers a handler for one channel. Messages from frames that are not the app's pages are
 * dropped, and arguments are parsed with zod before the handler sees them.
 */
function handle<C extends Channel>(
  channel: C,
  args: z.ZodType<Parameters<RequestResponseChannels[C]>>,
  isTrusted: SenderCheck,
  handler: Handler<C>,
): void {
  ipcMain.handle(channel, (event: IpcMainInvokeEvent, ...raw: unknown[]) => {
    const url = event.senderFrame?.url ?? '';
    if (!isTrusted(url)) throw new Error(`${channel}: refused a message from an untrusted frame`);
    // Said in the channel's words: zod's issue list means nothing to the page, which never sends these.
    const parsed = args.safeParse(raw);
    if (!parsed.success) throw new Error(`${channel}: invalid arguments`);
    return handler(...parsed.data);
  });
}

/** What the IPC handlers need from the rest of the main process. */
export interface IpcContext {
  readonly isTrusted: SenderCheck;
  readonly connection: Handler<'connection:get'>;
  readonly openExternal: Handler<'external:open'>;
}

/** Registers every channel of {@link RequestResponseChannels}. */
export function registerIpcHandlers(ctx: IpcContext): void {
  handle('connection:get', z.tuple([]), ctx.isTrusted, ctx.connection);
  handle('external:open', z.tuple([z.string().max(8192)]), ctx.isTrusted, ctx.openExternal);
}
