import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRICS_RENDER_INTERVAL_MS } from '../../src/server/http/metrics.js';
import { startTempServers, TEST_STORE_TOKEN, type TempServers } from '../support/temp-servers.js';
import { collect, openSocket, parseAnswer, type RawAnswer } from '../foundation/raw-http.js';

/** Every answer in `data`, in order (content-length framing). */
function answersIn(data: Buffer): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let rest = data;
  for (let answer = parseAnswer(rest); answer !== undefined; answer = parseAnswer(rest)) {
    answers.push(answer);
    const headEnd = rest.indexOf('\r\n\r\n') + 4;
    rest = rest.subarray(headEnd + Number(answer.headers['content-length'] ?? 0));
  }
  return answers;
}

/** `count` GETs of `path` pipelined on one socket in one write; the answers. */
async function pipelined(url: string, path: string, count: number, headers = ''): Promise<RawAnswer[]> {
  const socket = await openSocket(url);
  const received = collect(socket);
  const one = `GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n${headers}\r\n`;
  socket.write(one.repeat(count - 1) + one.replace('\r\n\r\n', '\r\nconnection: close\r\n\r\n'));
  return answersIn((await received).data);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** /metrics is public: asking for it many times at once renders it once, and a later scrape is fresh. */
describe('the cost of /metrics', () => {
  let servers: TempServers;
  beforeAll(async () => {
    servers = await startTempServers({ store: { metrics_public: true } });
  });
  afterAll(async () => {
    await servers.stop();
  });

  it('answers pipelined scrapes from one rendering, on both services', async () => {
    for (const url of [servers.gatewayUrl, servers.storeUrl]) {
      const answers = await pipelined(url, '/metrics', 40, `authorization: Bearer ${TEST_STORE_TOKEN}\r\n`);
      expect(answers, url).toHaveLength(40);
      expect(answers.every((answer) => answer.status === 200)).toBe(true);
      // Each rendering reads the heap afresh: identical bodies are one rendering.
      expect(new Set(answers.map((answer) => answer.body)).size, url).toBe(1);
    }
  });

  it('a scrape after the interval counts the requests before it', async () => {
    const auth = { authorization: `Bearer ${TEST_STORE_TOKEN}` };
    const unmatched = () => fetch(`${servers.storeUrl}/no-such-route`, { headers: auth });
    const count = async () => {
      const text = await (await fetch(`${servers.storeUrl}/metrics`, { headers: auth })).text();
      const line = text.split('\n').find((l) => l.startsWith('svc_http_requests_total{route="unmatched"'));
      return line === undefined ? 0 : Number(line.split(' ').at(-1));
    };
    const before = await count();
    await unmatched();
    await sleep(METRICS_RENDER_INTERVAL_MS + 50);
    expect(await count()).toBe(before + 1);
    // Scraped again at once: the scrape waits for a rendering that sees what came before it.
    await unmatched();
    expect(await count()).toBe(before + 2);
  });
});
