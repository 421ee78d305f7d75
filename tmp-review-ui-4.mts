import { launch, signedIn, shot, logs, admin, GW } from './tmp-review-ui-lib.mts';
import { readFileSync } from 'node:fs';
const key = readFileSync('/tmp/review-ui/key1', 'utf8');
const b = await launch();
const p = await signedIn(b, 'gateway/traffic');
await p.waitForTimeout(1500);
console.log((await p.locator('main').ariaSnapshot()).slice(0, 2500));
for (let i = 0; i < 4; i++) {
  const r = await fetch(GW + '/v1/chat/completions', { method: 'POST', headers: { authorization: 'Bearer ' + key, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: 'hello ' + i + ' my email is bob@example.com' }] }) });
  console.log(i, r.status, (await r.text()).slice(0, 200));
}
await p.waitForTimeout(1500);
await shot(p, 'traffic');
const lb = p.getByRole('listbox', { name: 'Requests' });
const opts = lb.getByRole('option');
console.log('options', await opts.count());
for (let i = 0; i < Math.min(5, await opts.count()); i++) console.log('  ', await opts.nth(i).getAttribute('aria-label') ?? await opts.nth(i).textContent());
await opts.first().click();
await p.waitForTimeout(800);
await shot(p, 'traffic-drawer');
console.log('url', p.url());
console.log((await p.getByRole('complementary').or(p.getByRole('dialog')).first().ariaSnapshot().catch(e => 'no drawer ' + e)).slice(0, 3000));
console.log('key in DOM:', (await p.content()).includes(key));
console.log(logs.join('\n'));
await b.close();
