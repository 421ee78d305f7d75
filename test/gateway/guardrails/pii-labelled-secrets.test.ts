import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

// Secrets known only by their label, and a connection string's password: what runbooks and configs hold.
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const PASSWORD = 'hunter2-Sup3r!';
const PASSWD = 'trustno1-Again';
const CLIENT_SECRET = 'c1ient-s3cret-value';
const API_KEY = 'AbCdEf0123456789';
const TOKEN = 'tok_9f8e7d6c5b4a';
const DB_PASSWORD = 'S3cretPw';
const SECRETS = [AWS_SECRET, PASSWORD, PASSWD, CLIENT_SECRET, API_KEY, TOKEN, DB_PASSWORD];

const RUNBOOK = [
  `aws_secret_access_key=${AWS_SECRET}`,
  `password: ${PASSWORD}`,
  `passwd=${PASSWD}`,
  `"client_secret": "${CLIENT_SECRET}"`,
  `api_key=${API_KEY}`,
  `token: ${TOKEN}`,
  `DATABASE_URL=postgres://admin:${DB_PASSWORD}@db.internal:5432/prod`,
].join('\n');

// Lines about secrets that hold none: left as they are.
const NOT_SECRETS = [
  'the password is stored in the vault',
  'password: ',
  'DB_PASSWORD=${DB_PASSWORD}',
  'password: <password>',
  'secret: ****',
  'max_tokens: 1024',
  'Password: must be at least 12 characters',
  'https://docs.example.org:8443/runbook',
].join('\n');

function expectRedacted(raw: string): void {
  for (const value of SECRETS) expect(raw).not.toContain(value);
  // Only the values: the labels, the user name and the host stay for the model to read.
  expect(raw).toMatch(/aws_secret_access_key=\[SECRET_\d+\]/);
  expect(raw).toMatch(/password: \[SECRET_\d+\]/);
  expect(raw).toMatch(/passwd=\[SECRET_\d+\]/);
  expect(raw).toMatch(/\\"client_secret\\": \\"\[SECRET_\d+\]\\"/);
  expect(raw).toMatch(/api_key=\[SECRET_\d+\]/);
  expect(raw).toMatch(/token: \[SECRET_\d+\]/);
  expect(raw).toMatch(/postgres:\/\/admin:\[SECRET_\d+\]@db\.internal:5432\/prod/);
  expect(raw).not.toContain('[EMAIL_');
}

/** Labelled secrets and URL passwords, in a caller's request (scrub, never restored) and in retrieved text. */
describe('PII: labelled secrets and URL passwords', () => {
  let h: GatewayHarness;
  let key: string;

  beforeAll(async () => {
    h = await startGatewayHarness({ pii: { mode: 'mask' } });
    key = (await h.issueKey({ scopes: ['chat', 'rag:runbooks'] })).key;
    await h.admin('POST', '/internal/rag/collections', { name: 'runbooks' });
    const added = await h.admin('POST', '/internal/rag/collections/runbooks/documents', {
      key: 'deploy.md',
      content: `Deploy runbook QUOKKA.\n${RUNBOOK}`,
    });
    expect(added.status).toBe(201);
  });
  afterAll(() => h.close());

  it('a request: only the values go, the labels stay, and an answer never gets a secret back', async () => {
    const content = `Check this config:\n${RUNBOOK}\n${NOT_SECRETS}`;
    h.openai.setNext({ reply: { text: 'The password is [SECRET_2] and the database one [SECRET_7].' } });
    const answer = await h
      .openaiClient(key)
      .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] });
    const upstream = h.openai.lastRequest()!.rawBody;
    expectRedacted(upstream);
    expect(upstream).toContain(JSON.stringify(NOT_SECRETS).slice(1, -1));
    expect(answer.choices[0]!.message.content).toBe('The password is [SECRET_2] and the database one [SECRET_7].');
  });

  it('a label in one text part and its value in the next: the value is still replaced', async () => {
    await h.openaiClient(key).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'The config says password: ' },
            { type: 'text', text: PASSWORD },
          ],
        },
      ],
    });
    const upstream = h.openai.lastRequest()!.rawBody;
    expect(upstream).not.toContain(PASSWORD);
    expect(upstream).toContain('"text":"The config says password: "');
    expect(upstream).toContain('"text":"[SECRET_1]"');
  });

  it('retrieved text: the same redaction reaches the upstream', async () => {
    await h
      .openaiClient(key)
      .chat.completions.create(
        { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'deploy secrets QUOKKA' }] },
        { headers: { 'x-gatehouse-rag': 'runbooks' } },
      );
    const upstream = h.openai.lastRequest()!.rawBody;
    expect(upstream).toContain('Deploy runbook QUOKKA');
    expectRedacted(upstream);
  });
});
