import { chromium, type Page, type Browser } from 'playwright-core';
import { readFileSync } from 'node:fs';
export const GW = 'http://127.0.0.1:19110';
export const ST = 'http://127.0.0.1:19111';
export const MASTER = readFileSync('/tmp/review-ui/data/master.key', 'utf8').trim();
export const TOKEN = readFileSync('/tmp/review-ui/data/store.token', 'utf8').trim();
export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
}
export const logs: string[] = [];
export async function signedIn(browser: Browser, path = '', viewport = { width: 1280, height: 800 }): Promise<Page> {
  const ctx = await browser.newContext({ viewport });
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: GW });
  const page = await ctx.newPage();
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') logs.push(`[console ${m.type()}] ${m.text()}`); });
  page.on('pageerror', (e) => logs.push(`[pageerror] ${e.message}`));
  await page.addInitScript(([k, t]) => {
    sessionStorage.setItem('gatehouse.credentials', JSON.stringify({ masterKey: k, storeToken: t }));
  }, [MASTER, TOKEN]);
  await page.goto(`${GW}/ui/${path}`);
  return page;
}
export async function admin(path: string, method = 'GET', body?: unknown) {
  const r = await fetch(GW + path, { method, headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text(); let json: any; try { json = JSON.parse(text); } catch { json = text; }
  return { status: r.status, json };
}
export async function store(path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') {
  const r = await fetch(ST + path, { method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text(); let json: any; try { json = JSON.parse(text); } catch { json = text; }
  return { status: r.status, json };
}
export async function shot(page: Page, name: string) { await page.screenshot({ path: `/tmp/review-ui/shots/${name}.png`, fullPage: false }); }
export async function a11ySnap(page: Page) { return (page.locator('body') as any).ariaSnapshot(); }
