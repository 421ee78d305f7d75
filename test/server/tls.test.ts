import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/load.js';
import { readTlsFiles } from '../../src/server/config/tls-files.js';
import { configRefusal } from '../support/config-files.js';
import {
  failedStart,
  issueKey,
  spawnHeadless,
  waitForLogLine,
  type HeadlessProcess,
} from '../support/headless-process.js';
import { selfSignedCertificate } from '../support/tls-certificate.js';

const MASTER_KEY = 'tls-test-master-key-0001';
const STORE_TOKEN = 'tls-test-store-token-0001';

/** A self-signed certificate in the test's folder, named `name`. */
function certificate(dir: string, name: string): { cert: string; key: string; pem: string } {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  return { cert, key, pem: selfSignedCertificate(cert, key) };
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-tls-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Bound to every interface, as a LAN server is: the browser reaches it by a name of its own.
describe('server.tls', () => {
  let server: HeadlessProcess;
  let trusting: Agent;
  /** Where this machine reaches each service: the printed 0.0.0.0 is where it listens. */
  let gatewayUrl: string;
  let storeUrl: string;
  beforeAll(async () => {
    const own = certificate(dir, 'own');
    trusting = new Agent({ connect: { ca: own.pem } });
    // Relative paths, read from the file's folder as the data folder's are.
    const config = join(dir, 'gatehouse.yaml');
    writeFileSync(
      config,
      'server:\n  allowed_hosts: [gatehouse.test]\n  tls:\n    cert_file: own.crt\n    key_file: own.key\n',
    );
    server = await spawnHeadless({
      GATEHOUSE_DATA_DIR: join(dir, 'data'),
      GATEHOUSE_CONFIG: config,
      GATEHOUSE_HOST: '0.0.0.0',
      PROXY_MASTER_KEY: MASTER_KEY,
      STORE_TOKEN,
    });
    gatewayUrl = server.gatewayUrl.replace('0.0.0.0', '127.0.0.1');
    storeUrl = server.storeUrl.replace('0.0.0.0', '127.0.0.1');
  });
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await trusting?.close();
  });

  it('serves both services over HTTPS and prints https addresses', () => {
    expect(server.gatewayUrl).toMatch(/^https:\/\/0\.0\.0\.0:\d+$/);
    expect(server.storeUrl).toMatch(/^https:\/\/0\.0\.0\.0:\d+$/);
  });

  it('warns that other machines can reach it, without calling it unencrypted', async () => {
    const warning = await waitForLogLine(server, (entry) => String(entry.msg).includes('other machines can reach'));
    expect(warning.msg).not.toContain('unencrypted');
  });

  it('answers the OpenAI SDK of a client that trusts the certificate', async () => {
    const { key } = await issueKey(gatewayUrl, MASTER_KEY, { scopes: ['chat'] }, { dispatcher: trusting });
    const client = new OpenAI({
      apiKey: key,
      baseURL: `${gatewayUrl}/v1`,
      fetchOptions: { dispatcher: trusting } as never,
    });
    const completion = await client.chat.completions.create({
      model: 'demo/echo',
      messages: [{ role: 'user', content: 'over TLS' }],
    });
    expect(completion.choices[0]!.message.content).toContain('over TLS');
  });

  it('answers the store, and tells the UI the store by its https address', async () => {
    const namespaces = await fetch(`${storeUrl}/v1/namespaces`, {
      headers: { authorization: `Bearer ${STORE_TOKEN}` },
      dispatcher: trusting,
    } as unknown as RequestInit);
    expect(namespaces.status).toBe(200);
    const bootstrap = await fetch(`${gatewayUrl}/ui/bootstrap.json`, {
      dispatcher: trusting,
    } as unknown as RequestInit);
    expect(await bootstrap.json()).toMatchObject({ storeUrl, gatewayUrl });
  });

  it("lets the gateway's https pages call the store, and no http page", async () => {
    const preflight = async (origin: string) =>
      (
        await fetch(`${storeUrl}/v1/state`, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'GET' },
          dispatcher: trusting,
        } as unknown as RequestInit)
      ).headers.get('access-control-allow-origin');
    const named = `https://gatehouse.test:${new URL(gatewayUrl).port}`;
    expect(await preflight(named)).toBe(named);
    expect(await preflight(named.replace('https:', 'http:'))).toBeNull();
  });

  it('is refused by a client that does not trust the certificate', async () => {
    const error = await fetch(`${gatewayUrl}/healthz`).then(
      () => undefined,
      (failure: Error) => failure,
    );
    expect((error?.cause as { code?: string } | undefined)?.code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
  });
});

describe('server.tls files that cannot be used', () => {
  const configWith = (cert: string, key: string): string => {
    const file = join(mkdtempSync(join(dir, 'config-')), 'gatehouse.yaml');
    writeFileSync(file, `server:\n  tls:\n    cert_file: ${cert}\n    key_file: ${key}\n`);
    return file;
  };

  it('names a missing file by its key and full path', () => {
    const own = certificate(dir, 'missing-pair');
    const refusal = configRefusal(configWith(join(dir, 'nowhere.crt'), own.key));
    expect(refusal.issues).toEqual([`server.tls.cert_file: cannot read ${join(dir, 'nowhere.crt')} (no such file)`]);
  });

  it('names a key of another certificate, and files swapped or of the wrong kind', () => {
    const one = certificate(dir, 'one');
    const other = certificate(dir, 'other');
    expect(configRefusal(configWith(one.cert, other.key)).issues).toEqual([
      `server.tls.key_file: the key in ${other.key} does not belong to the certificate in ${one.cert}`,
    ]);
    expect(configRefusal(configWith(one.key, one.cert)).issues).toEqual([
      `server.tls.cert_file: ${one.key} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`,
      `server.tls.key_file: ${one.cert} holds no PEM private key (-----BEGIN PRIVATE KEY-----)`,
    ]);
  });

  it('says how to use a key that is encrypted with a passphrase', () => {
    const own = certificate(dir, 'encrypted');
    const encrypted = join(dir, 'encrypted-with-passphrase.key');
    execFileSync('openssl', ['pkey', '-in', own.key, '-aes256', '-passout', 'pass:secret', '-out', encrypted]);
    const [issue] = configRefusal(configWith(own.cert, encrypted)).issues;
    expect(issue).toContain(`server.tls.key_file: ${encrypted} is encrypted with a passphrase`);
    expect(issue).toContain(`openssl pkey -in ${encrypted} -out key.pem`);
  });

  it('stops `--check` with exit code 2, naming the key', async () => {
    const failure = await failedStart({ GATEHOUSE_DATA_DIR: join(dir, 'check-data') }, 25_000, [
      '--check',
      '--config',
      configWith('absent.crt', 'absent.key'),
    ]);
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain('server.tls.cert_file: cannot read');
    expect(failure?.stderr).toContain('server.tls.key_file: cannot read');
  });

  it('warns of a key other users can read and of a certificate about to expire, and still starts', () => {
    const own = certificate(dir, 'loose');
    chmodSync(own.key, 0o644);
    const loaded = loadConfig({ file: configWith(own.cert, own.key), env: {} });
    expect(loaded.warnings).toContain(
      `server.tls.key_file: ${own.key} can be read by other users (mode 0644); chmod 600 it`,
    );
    const inTwentyFiveDays = Date.now() + 25 * 86_400_000;
    const reading = readTlsFiles({ cert_file: own.cert, key_file: own.key }, inTwentyFiveDays);
    expect('warnings' in reading && reading.warnings[0]).toMatch(
      /^server\.tls\.cert_file: the certificate in .* expires on /,
    );
    const expired = readTlsFiles({ cert_file: own.cert, key_file: own.key }, Date.now() + 40 * 86_400_000);
    expect('warnings' in expired && expired.warnings[0]).toMatch(/expired on /);
  });
});
