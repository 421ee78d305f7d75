import { launch, signedIn, shot, logs, store, GW } from './tmp-review-ui-lib.mts';
const b = await launch();
const p = await signedIn(b, 'store/history?ns=rv%2Fns&branch=main');
const lb = p.getByRole('listbox', { name: 'Revisions' });
await lb.getByRole('option').first().waitFor();
await lb.getByRole('option', { name: /rev 1/ }).click();
await p.waitForTimeout(500);
console.log('url after select', p.url());
await p.getByRole('button', { name: /Roll back/ }).click();
await p.waitForTimeout(1000);
const d = p.getByRole('dialog');
console.log((await d.ariaSnapshot()).slice(0, 2500));
await shot(p, 'rollback-dialog');
// meanwhile, write from elsewhere -> expect 409 handling
await store('/v1/apply', { scope: { namespace: 'rv/ns', branch: 'main' }, documents: [{ key: 'sneaky.txt', content: 'x' }], message: 'sneaky' });
await d.getByRole('button', { name: /Roll back/ }).click();
await p.waitForTimeout(1500);
console.log('--- after confirm with moved branch');
console.log((await d.ariaSnapshot().catch(() => 'dialog closed')).slice(0, 2500));
await shot(p, 'rollback-409');
if (await d.count()) { await d.getByRole('button', { name: /Roll back/ }).click(); await p.waitForTimeout(1500); }
console.log('--- after second confirm');
console.log('dialog count', await d.count());
console.log((await lb.ariaSnapshot()).slice(0, 1500));
console.log(await p.getByRole('status').allTextContents());
const st = await store('/v1/state?namespace=rv/ns&branch=main');
console.log(JSON.stringify(st.json).slice(0, 500));
console.log(logs.join('\n'));
await b.close();
