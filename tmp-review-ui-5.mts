import { launch, signedIn, shot, logs, admin, GW } from './tmp-review-ui-lib.mts';
const k = await admin('/internal/api-keys', 'POST', { name: 'rv-meter', scopes: ['chat'], rpm_limit: 10, user: 'rvuser', team: 'rvteam' });
console.log(k.status, k.json.id);
const b = await launch();
const p = await signedIn(b, 'gateway/keys?q=rv-meter');
await p.getByRole('row').filter({ hasText: 'rv-meter' }).waitFor();
console.log('before:', await p.getByRole('row').filter({ hasText: 'rv-meter' }).textContent());
for (let i = 0; i < 3; i++) await fetch(GW + '/v1/chat/completions', { method: 'POST', headers: { authorization: 'Bearer ' + k.json.key, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: 'hi' }] }) });
for (const t of [500, 1500, 3000]) { await p.waitForTimeout(t); console.log(`after +${t}:`, await p.getByRole('row').filter({ hasText: 'rv-meter' }).textContent()); }
// Admin-side mutation from elsewhere: rename via API
await admin(`/internal/api-keys/${k.json.id}`, 'PATCH', { name: 'rv-meter-renamed' });
await p.waitForTimeout(3000);
console.log('after external rename:', await p.getByRole('row').filter({ hasText: 'rv-meter' }).allTextContents());
// revoke externally
await admin(`/internal/api-keys/${k.json.id}`, 'DELETE');
await p.waitForTimeout(3000);
console.log('after external revoke:', await p.getByRole('row').filter({ hasText: 'rv-meter' }).allTextContents());
// users page
await p.goto(GW + '/ui/gateway/people');
await p.waitForTimeout(2000);
await shot(p, 'people');
console.log(logs.join('\n'));
await b.close();
