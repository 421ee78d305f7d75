import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAIClientWithNewKey } from '../support/sdk-clients.js';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';

/** RFC 4180 records: quoted fields may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      index += 1;
    } else field += char;
  }
  expect(field).toBe('');
  expect(record).toEqual([]);
  return records;
}

/** A JSON row's value as the CSV writes it (formula-looking text, at the start or after a `;`, behind a quote mark). */
const asCell = (value: unknown): string => {
  if (value === null) return '';
  const text = String(value);
  return typeof value === 'string' ? text.replace(/(^|;)([=+\-@\t\r])/g, "$1'$2") : text;
};

/** A formula behind a `;`, where spreadsheets of `;`-separated locales start a new cell. */
const AFTER_SEMICOLON = "x;=cmd|'/C calc'!A0";

/** Names a client may give that a spreadsheet would run as formulas, or that need quoting. */
const HOSTILE_MODELS = [
  '=HYPERLINK("http://x.example","a,b")',
  '+1+1',
  '-2+3',
  '@SUM(A1)',
  'two\nlines, "quoted"',
  AFTER_SEMICOLON,
];

describe('the usage log as CSV', () => {
  let servers: TempServers;
  let client: OpenAI;
  const since = new Date(Date.now() - 60_000).toISOString();

  beforeAll(async () => {
    servers = await startTempServers();
    client = await openAIClientWithNewKey(servers, { name: 'csv-export' });
    for (let index = 0; index < 3; index += 1)
      await client.chat.completions.create({
        model: 'demo/echo',
        messages: [{ role: 'user', content: `hi ${index}` }],
      });
    for (const model of HOSTILE_MODELS)
      await expect(
        client.chat.completions.create({ model, messages: [{ role: 'user', content: 'x' }] }),
      ).rejects.toThrow();
  });
  afterAll(async () => servers?.stop());

  const read = (query: string, headers: Record<string, string> = {}) =>
    fetch(`${servers.gatewayUrl}/internal/usage/logs?${query}`, {
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, ...headers },
    });
  const jsonRows = async (query: string): Promise<Array<Record<string, unknown>>> =>
    ((await (await read(query)).json()) as { data: Array<Record<string, unknown>> }).data;

  it('answers every matching row under a header of the row fields, quoted per RFC 4180, formulas defused', async () => {
    const until = new Date(Date.now() + 60_000).toISOString();
    const range = `since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`;
    const response = await read(`format=csv&${range}&limit=2`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const stamp = (iso: string) => iso.replace(/\.\d{3}Z$/, 'Z').replaceAll(':', '-');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="usage-${stamp(since)}-to-${stamp(until)}.csv"`,
    );
    const [header, ...records] = parseCsv(await response.text());

    // `limit` pages the JSON listing; the export holds every row.
    const rows = await jsonRows(`${range}&limit=1000`);
    expect(rows).toHaveLength(3 + HOSTILE_MODELS.length);
    expect(response.headers.get('x-gatehouse-export-rows')).toBe(String(rows.length));
    expect(header).toEqual(Object.keys(rows[0]!));
    expect(records).toEqual(rows.map((row) => header!.map((column) => asCell(row[column]))));
    const requested = records.map((record) => record[header!.indexOf('requested_model')]);
    expect(requested).toEqual(expect.arrayContaining(['\'=HYPERLINK("http://x.example","a,b")', "'+1+1", "'-2+3"]));
    expect(requested).toEqual(expect.arrayContaining(["'@SUM(A1)", 'two\nlines, "quoted"']));
  });

  it('defuses a formula after a `;` and quotes the field, so a `;`-separated reading starts no cell with it', async () => {
    const text = await (await read('format=csv')).text();
    const [header, ...records] = parseCsv(text);
    const requested = records.map((record) => record[header!.indexOf('requested_model')]);
    expect(requested).toContain("x;'=cmd|'/C calc'!A0");
    const line = text.split('\r\n').find((record) => record.includes('cmd|'));
    expect(line).toContain(`,"x;'=cmd|'/C calc'!A0",`);
    // Even read without the quotes, split where such a spreadsheet splits: no cell starts a formula.
    for (const cell of line!.split(/[;,]/)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('is what Accept: text/csv asks for too, with the same filters as the JSON listing', async () => {
    const response = await read('model=demo%2Fecho', { accept: 'text/csv' });
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="usage-start-to-[\dT-]+Z\.csv"$/,
    );
    const [header, ...records] = parseCsv(await response.text());
    expect(records).toHaveLength(3);
    expect(new Set(records.map((record) => record[header!.indexOf('model')]))).toEqual(new Set(['demo/echo']));
    // format=json wins over the Accept header.
    expect((await read('format=json', { accept: 'text/csv' })).headers.get('content-type')).toMatch(
      /^application\/json/,
    );
  });

  it('stops at max_rows, saying so and naming the cursor that exports the rest', async () => {
    const all = await jsonRows('limit=1000');
    const first = await read('format=csv&max_rows=3');
    expect(first.headers.get('x-gatehouse-export-rows')).toBe('3');
    expect(first.headers.get('content-disposition')).toMatch(/-cut\.csv"$/);
    const cursor = first.headers.get('x-gatehouse-export-next-cursor');
    expect(cursor).toBe(String(all[2]!.id));
    const [header, ...head] = parseCsv(await first.text());
    const rest = await read(`format=csv&before=${cursor}`);
    expect(rest.headers.get('x-gatehouse-export-next-cursor')).toBeNull();
    const [, ...tail] = parseCsv(await rest.text());
    const ids = [...head, ...tail].map((record) => Number(record[header!.indexOf('id')]));
    expect(ids).toEqual(all.map((row) => row.id));
  });

  it('refuses an unknown format and a max_rows outside a CSV export, naming the parameter', async () => {
    const xml = await read('format=xml');
    expect(xml.status).toBe(400);
    expect(((await xml.json()) as { error: { message: string } }).error.message).toContain('format');
    const json = await read('max_rows=5');
    expect(json.status).toBe(400);
    expect(((await json.json()) as { error: { message: string } }).error.message).toBe(
      'query parameter max_rows applies to format=csv only',
    );
  });
});
