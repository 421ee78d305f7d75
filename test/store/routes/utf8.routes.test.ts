import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_STORE_TOKEN, type TempServers } from '../../support/temp-servers.js';
import { errorOf, sendBytes } from '../../foundation/json-body-client.js';

// The store keeps UTF-8 content: bytes that are not UTF-8 are refused with the document that holds
// them, never replaced with U+FFFD; every valid character comes back exactly as sent.

const invalid = (message: string) => errorOf('invalid_request_error', message, 400);
/** JSON text with raw bytes spliced in where markers such as `<<e9>>` or `<<c0 80>>` stand. */
const withBytes = (text: string): Buffer =>
  Buffer.concat(
    text.split(/(<<[0-9a-f ]+>>)/).map((part) =>
      part.startsWith('<<')
        ? Buffer.from(
            part
              .slice(2, -2)
              .split(' ')
              .map((hex) => parseInt(hex, 16)),
          )
        : Buffer.from(part),
    ),
  );

describe('store documents must be UTF-8', () => {
  let servers: TempServers;

  const apply = (body: Buffer | string) =>
    sendBytes(
      `${servers.storeUrl}/v1/apply`,
      { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' },
      body,
    );
  const state = async (namespace: string) =>
    sendBytes(
      `${servers.storeUrl}/v1/state?namespace=${namespace}`,
      { authorization: `Bearer ${TEST_STORE_TOKEN}` },
      '',
      'GET',
    );

  beforeAll(async () => {
    servers = await startTempServers();
  });
  afterAll(async () => servers.stop());

  it('names the document and its key when a content holds bytes that are not UTF-8, and writes nothing', async () => {
    const body = withBytes(
      '{"scope":{"namespace":"u8/bad"},"documents":[{"key":"ok.txt","content":"caf\\u00e9 café"},' +
        '{"key":"b.txt","content":"fine"},{"key":"a.txt","content":"caf<<e9>> latin1"}],"message":"m"}',
    );
    const answer = await apply(body);
    expect(answer.status).toBe(400);
    expect(answer.headers['x-request-id']).toBeDefined();
    expect(answer.body).toEqual(invalid("documents[2].content (key 'a.txt') is not valid UTF-8"));
    expect((await state('u8/bad')).body.revision).toBe(0);
  });

  it('names keys, messages and JSON keys too, and refuses overlong and surrogate encodings', async () => {
    const cases: [string, string][] = [
      ['{"scope":{},"documents":[{"key":"k<<ff>>","content":"x"}]}', 'documents[0].key is not valid UTF-8'],
      [
        '{"scope":{},"documents":[{"key":"ключ.txt","content":"<<c0 80>>"}]}',
        "documents[0].content (key 'ключ.txt') is not valid UTF-8",
      ],
      [
        '{"scope":{},"documents":[{"key":"s","content":"<<ed a0 80>>"}]}',
        "documents[0].content (key 's') is not valid UTF-8",
      ],
      ['{"scope":{},"documents":[{"key":"k","content":"x"}],"message":"<<80>>"}', 'message is not valid UTF-8'],
      ['{"scope":{"name<<fe>>space":"x"},"documents":[]}', 'a key in scope is not valid UTF-8'],
      ['{"scope":{},"documents":[{"key":"k","content":"<<e9>>"', 'request body is not valid UTF-8'],
    ];
    for (const [text, message] of cases) expect((await apply(withBytes(text))).body, message).toEqual(invalid(message));
  });

  it('stores emoji, CJK, combining marks and a literal U+FFFD intact', async () => {
    const documents = {
      'emoji.txt': 'deploy 🚀 by 👩🏽‍💻',
      '漢字/キー.md': '中文内容，日本語のテキスト、한국어',
      'mixed.txt': 'e\u0301 ≠ é; � stays; \u0000 too',
      'escaped.txt': 'caf\u00e9',
    };
    const body = JSON.stringify({
      scope: { namespace: 'u8/good' },
      documents: Object.entries(documents).map(([key, content]) => ({ key, content })),
    });
    const written = await apply(Buffer.from(body, 'utf8'));
    expect(written.status).toBe(200);
    const read = await state('u8/good');
    expect(read.body.objects).toEqual(documents);
  });
});
