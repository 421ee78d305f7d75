import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { beforeEach, describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

/**
 * Files (PDFs, text) cross the formats: Claude Code sends a PDF it reads as a Messages `document`, an
 * OpenAI client as a `file` part or a Responses `input_file`, and each provider takes its own form.
 */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n').toString('base64');
const PDF_URL = `data:application/pdf;base64,${PDF}`;

describe('documents sent to a model of the other format', () => {
  const context = harnessWithKey();
  beforeEach(() => {
    context.harness.openai.reset();
    context.harness.anthropic.reset();
  });

  it('Messages documents reach a chat model as a file part (PDF) or text (text and content documents)', async () => {
    const client = context.harness.anthropicClient(context.key);
    await client.messages.create({
      model: 'gpt-4o-mini',
      max_tokens: 50,
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'document',
              source: { type: 'base64', media_type: 'application/pdf', data: PDF },
              title: 'report.pdf',
              context: 'Q3 figures',
              citations: { enabled: true },
            },
            {
              type: 'document',
              source: { type: 'text', media_type: 'text/plain', data: 'Line one.\nLine two.' },
              title: 'notes',
            },
            {
              type: 'document',
              source: { type: 'content', content: [{ type: 'text', text: 'First chunk.' }] },
              context: 'from the wiki',
            },
            { type: 'text', text: 'Summarise these.' },
          ],
        },
      ],
    });
    const sent = context.harness.openai.lastRequest()!.body as { messages: unknown[] };
    expect(sent.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Q3 figures' },
          { type: 'file', file: { filename: 'report.pdf', file_data: PDF_URL } },
          { type: 'text', text: 'notes\n\nLine one.\nLine two.' },
          { type: 'text', text: 'from the wiki' },
          { type: 'text', text: 'First chunk.' },
          { type: 'text', text: 'Summarise these.' },
        ],
      },
    ]);
  });

  it('a document a chat model cannot be sent is a 400 naming it, before any upstream call', async () => {
    const client = context.harness.anthropicClient(context.key);
    const ask = (source: Record<string, unknown>) =>
      client.messages
        .create({
          model: 'gpt-4o-mini',
          max_tokens: 50,
          messages: [{ role: 'user', content: [{ type: 'document', source } as never, { type: 'text', text: 'x' }] }],
        })
        .catch((error: unknown) => error);
    const byUrl = await ask({ type: 'url', url: 'https://example.test/a.pdf' });
    expect(byUrl).toBeInstanceOf(Anthropic.BadRequestError);
    expect((byUrl as Error).message).toContain(
      'messages[0].content[0].source: a document by URL is only available on Anthropic models; send its contents',
    );
    const byId = await ask({ type: 'file', file_id: 'file_011' });
    expect((byId as Error).message).toContain('messages[0].content[0].source: a document by file id');
    const noData = await ask({ type: 'base64', media_type: 'application/pdf' });
    expect((noData as Error).message).toContain('messages[0].content[0].source.data: must be');
    expect(context.harness.openai.requests).toHaveLength(0);
  });

  it('chat file parts reach Claude as documents: a PDF as base64, a text file as text, named', async () => {
    const client = context.harness.openaiClient(context.key);
    await client.chat.completions.create({
      model: 'claude-opus-4-7',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'file', file: { filename: 'report.pdf', file_data: PDF_URL } },
            { type: 'file', file: { file_data: `data:text/plain;base64,${Buffer.from('héllo').toString('base64')}` } },
            { type: 'text', text: 'Summarise.' },
          ],
        },
      ],
    });
    const sent = context.harness.anthropic.lastRequest()!.body as { messages: unknown[] };
    expect(sent.messages).toEqual([
      {
        role: 'user',
        content: [
          {
            type: 'document',
            source: { type: 'base64', media_type: 'application/pdf', data: PDF },
            title: 'report.pdf',
          },
          {
            type: 'document',
            source: { type: 'text', media_type: 'text/plain', data: 'héllo' },
            title: 'document.txt',
          },
          { type: 'text', text: 'Summarise.' },
        ],
      },
    ]);
  });

  it('a chat file Claude cannot read is a 400 naming the part or the type, before any upstream call', async () => {
    const client = context.harness.openaiClient(context.key);
    const ask = (file: Record<string, unknown>) =>
      client.chat.completions
        .create({ model: 'claude-opus-4-7', messages: [{ role: 'user', content: [{ type: 'file', file }] }] })
        .catch((error: unknown) => error);
    const byId = await ask({ file_id: 'file-abc' });
    expect(byId).toBeInstanceOf(OpenAI.BadRequestError);
    expect((byId as Error).message).toContain(
      'messages[0].content[0].file.file_id: a file uploaded to OpenAI cannot be sent to this model; send its contents as file_data',
    );
    const raw = await ask({ filename: 'a.pdf', file_data: PDF });
    expect((raw as Error).message).toContain(
      'messages[0].content[0].file.file_data: must be a base64 data: URL (data:application/pdf;base64,<data>)',
    );
    const word = await ask({ filename: 'a.docx', file_data: 'data:application/msword;base64,AAAA' });
    expect((word as Error).message).toContain(
      'a file of type application/msword: Anthropic models read PDF (application/pdf) and text (text/*) files',
    );
    expect(context.harness.anthropic.requests).toHaveLength(0);
  });

  it('a Responses input_file reaches Claude as a document and a chat model as a file part', async () => {
    const client = context.harness.openaiClient(context.key);
    const input = [
      {
        role: 'user' as const,
        content: [
          { type: 'input_file' as const, filename: 'report.pdf', file_data: PDF_URL },
          { type: 'input_text' as const, text: 'Summarise.' },
        ],
      },
    ];
    await client.responses.create({ model: 'claude-opus-4-7', input });
    expect((context.harness.anthropic.lastRequest()!.body as { messages: unknown[] }).messages).toEqual([
      {
        role: 'user',
        content: [
          {
            type: 'document',
            source: { type: 'base64', media_type: 'application/pdf', data: PDF },
            title: 'report.pdf',
          },
          { type: 'text', text: 'Summarise.' },
        ],
      },
    ]);
    await client.responses.create({ model: 'gpt-4o-mini', input });
    expect((context.harness.openai.lastRequest()!.body as { messages: unknown[] }).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'file', file: { filename: 'report.pdf', file_data: PDF_URL } },
          { type: 'text', text: 'Summarise.' },
        ],
      },
    ]);
  });
});
