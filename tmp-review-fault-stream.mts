import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import fs from 'node:fs';
const key = fs.readFileSync('/tmp/review-fault/key', 'utf8').trim();
const oa = new OpenAI({ baseURL: 'http://127.0.0.1:19170/v1', apiKey: key, maxRetries: Number(process.env.RETRIES ?? 2), timeout: Number(process.env.TIMEOUT ?? 60000) });
const an = new Anthropic({ baseURL: 'http://127.0.0.1:19170', apiKey: key, maxRetries: Number(process.env.RETRIES ?? 2), timeout: Number(process.env.TIMEOUT ?? 60000) });
const models = process.argv.slice(2);
for (const model of models) {
  const t0 = Date.now();
  const el = () => ((Date.now() - t0) / 1000).toFixed(2) + 's';
  const stream = !model.endsWith(':ns');
  const m = model.replace(/:ns$/, '');
  try {
    if (m.startsWith('a-') || process.env.ANTH) {
      if (stream) {
        const s = an.messages.stream({ model: m, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
        s.on('text', (t) => console.log(`  [${el()}] text ${JSON.stringify(t)}`));
        const fin = await s.finalMessage();
        console.log(`${model}: OK ${el()} stop=${fin.stop_reason} text=${JSON.stringify(fin.content)} reqid=${fin._request_id}`);
      } else {
        const r = await an.messages.create({ model: m, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
        console.log(`${model}: OK ${el()} ${JSON.stringify(r.content)} reqid=${r._request_id}`);
      }
    } else {
      if (stream) {
        const s = await oa.chat.completions.create({ model: m, stream: true, messages: [{ role: 'user', content: 'hi' }] }).withResponse();
        console.log(`  [${el()}] headers status=${s.response.status} reqid=${s.request_id} dep=${s.response.headers.get('x-gateway-deployment')}`);
        let text = '';
        for await (const c of s.data) { const d = c.choices[0]?.delta?.content ?? ''; text += d; console.log(`  [${el()}] chunk ${JSON.stringify(d)} fin=${c.choices[0]?.finish_reason}`); }
        console.log(`${model}: OK ${el()} text=${JSON.stringify(text)}`);
      } else {
        const r = await oa.chat.completions.create({ model: m, messages: [{ role: 'user', content: 'hi' }] }).withResponse();
        console.log(`${model}: OK ${el()} len=${r.data.choices[0].message.content?.length} reqid=${r.request_id}`);
      }
    }
  } catch (e: any) {
    console.log(`${model}: ERR ${el()} ${e?.constructor?.name} status=${e?.status} reqid=${e?.request_id ?? e?.requestID} retry=${e?.headers?.get?.('x-should-retry')} msg=${String(e?.message).slice(0, 300)}`);
  }
}
