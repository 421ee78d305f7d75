import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { answer, reportsOf, startMain, windowOpen, type MainProcess, type Reported } from './desktop/main-process.js';

// The desktop window's own behaviour (under the `electron` stand-in): asking before unsaved changes
// go without stopping the servers that share its process, its menus, and a page that failed.

let dataDir: string;
let main: MainProcess;
let uiUrl: string;
test.beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-desktop-window-'));
  main = startMain(dataDir, undefined);
  uiUrl = await windowOpen(main);
});
test.afterEach(() => {
  main.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** The message boxes shown so far, by their message. */
const boxes = (): string[] => reportsOf(main, 'messageBox').map((r) => (r.options as { message: string }).message);

/** How long the gateway takes to answer its health check. */
async function healthTook(): Promise<number> {
  const at = Date.now();
  const response = await fetch(`${new URL(uiUrl).origin}/healthz`, { signal: AbortSignal.timeout(3000) });
  expect(response.status).toBe(200);
  return Date.now() - at;
}

test('a quit over unsaved changes asks without stopping the servers, and Discard goes on', async () => {
  main.child.send({ type: 'unsaved', value: true });
  main.child.send('quit');
  await expect.poll(boxes).toEqual(['Discard unsaved changes?']);
  expect(reportsOf(main, 'messageBoxSync')).toEqual([]);
  // The box is open: SDK clients of the gateway are answered all the while.
  expect(await healthTook()).toBeLessThan(1000);
  // Keep editing: the window stays, and so does the app.
  answer(main, 1);
  main.child.send('quit');
  await expect.poll(boxes).toHaveLength(2);
  expect(reportsOf(main, 'window.destroy')).toEqual([]);
  // A second close while the box is open asks nothing more.
  main.child.send('quit');
  answer(main, 0);
  expect(await main.exited).toBe(0);
  expect(boxes()).toHaveLength(2);
  expect(reportsOf(main, 'window.destroy')).toHaveLength(1);
});

test('a reload over unsaved changes asks, and Discard reloads', async () => {
  main.child.send({ type: 'unsaved', value: true });
  main.child.send({ type: 'reload' });
  await expect.poll(boxes).toEqual(['Discard unsaved changes?']);
  expect(reportsOf(main, 'reload')).toEqual([]);
  answer(main, 0);
  await expect.poll(() => reportsOf(main, 'reload')).toHaveLength(1);
  expect(main.child.exitCode).toBeNull();
});

/** The roles in a menu's items, submenus included. */
function roles(items: readonly Reported[]): string[] {
  return items.flatMap((item) => [
    ...(typeof item.role === 'string' ? [item.role] : []),
    ...roles((item.submenu as Reported[] | undefined) ?? []),
  ]);
}

test('its own application menu keeps the editing roles and drops the Help links', async () => {
  const [menu] = reportsOf(main, 'applicationMenu');
  const items = menu!.items as Reported[];
  expect(roles(items)).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll', 'reload']));
  expect(roles(items)).not.toContain('help');
  expect(JSON.stringify(items)).not.toMatch(/Learn More|Documentation|Community Discussions|Search Issues/);
});

test('a right click offers Cut, Copy, Paste and Select All in a text field, and Copy on a selection', async () => {
  main.child.send({
    type: 'webContents',
    event: 'context-menu',
    args: [
      {
        isEditable: true,
        selectionText: '',
        editFlags: { canCut: false, canCopy: false, canPaste: true, canSelectAll: true },
      },
    ],
  });
  await expect.poll(() => reportsOf(main, 'contextMenu')).toHaveLength(1);
  expect(reportsOf(main, 'contextMenu')[0]!.items).toEqual([
    { role: 'cut', enabled: false },
    { role: 'copy', enabled: false },
    { role: 'paste' },
    { type: 'separator' },
    { role: 'selectAll' },
  ]);
  main.child.send({
    type: 'webContents',
    event: 'context-menu',
    args: [{ isEditable: false, selectionText: 'rev 7', editFlags: { canCopy: true } }],
  });
  await expect.poll(() => reportsOf(main, 'contextMenu')).toHaveLength(2);
  expect(reportsOf(main, 'contextMenu')[1]!.items).toEqual([{ role: 'copy' }]);
  // Nothing to act on: no menu at all.
  main.child.send({
    type: 'webContents',
    event: 'context-menu',
    args: [{ isEditable: false, selectionText: '', editFlags: {} }],
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(reportsOf(main, 'contextMenu')).toHaveLength(2);
});

test('a page that failed to load, or whose renderer went away, says why and offers a reload', async () => {
  main.child.send({
    type: 'webContents',
    event: 'did-fail-load',
    args: [-102, 'ERR_CONNECTION_REFUSED', uiUrl, true],
  });
  await expect.poll(boxes).toHaveLength(1);
  const [failed] = reportsOf(main, 'messageBox');
  expect(failed!.options).toMatchObject({ buttons: ['Reload', 'Quit'] });
  expect(JSON.stringify(failed!.options)).toContain('ERR_CONNECTION_REFUSED');
  answer(main, 0);
  await expect.poll(() => reportsOf(main, 'reload')).toHaveLength(1);

  // A subframe's failure, or an aborted load (a navigation replaced), is no page failure.
  main.child.send({ type: 'webContents', event: 'did-fail-load', args: [-3, 'ERR_ABORTED', uiUrl, true] });
  main.child.send({
    type: 'webContents',
    event: 'did-fail-load',
    args: [-102, 'ERR_CONNECTION_REFUSED', uiUrl, false],
  });

  main.child.send({ type: 'webContents', event: 'render-process-gone', args: [{ reason: 'oom', exitCode: 9 }] });
  await expect.poll(boxes).toHaveLength(2);
  expect(JSON.stringify(reportsOf(main, 'messageBox')[1]!.options)).toContain('ran out of memory');
  answer(main, 1);
  expect(await main.exited).toBe(0);
});
