import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * Kept responses are shared within a team, and an answer may quote what RAG retrieved for it. A
 * teammate who may not read a collection must not read, or continue, a response made with it, nor a
 * later turn of that conversation made without retrieval.
 */
describe('kept responses made with a RAG collection a teammate may not read', () => {
  let h: GatewayHarness;
  let alice: OpenAI;
  let carol: OpenAI;
  const private_ = { headers: { 'x-gatehouse-rag': 'private' } };

  beforeAll(async () => {
    h = await startGatewayHarness({ responses: { default_store: true } });
    await h.admin('POST', '/internal/rag/collections', { name: 'private', access: { users: ['alice'] } });
    await h.admin('POST', '/internal/rag/collections', { name: 'handbook', access: { teams: ['people'] } });
    await h.admin('POST', '/internal/rag/collections/private/documents', {
      key: 'review.md',
      content: '# Performance review\n\nAlice performance review: exceeds expectations, raise 12 percent.',
    });
    await h.admin('POST', '/internal/rag/collections/handbook/documents', {
      key: 'vacation.md',
      content: '# Vacation\n\nUp to five unused vacation days carry over into the next year.',
    });
    const scopes = ['chat', 'responses', 'rag:*'];
    alice = h.openaiClient((await h.issueKey({ scopes, user: 'alice', team: 'people' })).key);
    carol = h.openaiClient((await h.issueKey({ scopes, user: 'carol', team: 'people' })).key);
  });
  afterAll(() => h.close());

  it('is the maker’s, and not found for the teammate, read or continued', async () => {
    const { data: made, response } = await alice.responses
      .create({ model: 'demo/echo', input: 'my performance review raise' }, private_)
      .withResponse();
    expect(response.headers.get('x-gatehouse-rag-chunks')).toMatch(/^private:/);
    expect((await alice.responses.retrieve(made.id)).id).toBe(made.id);

    const read = await carol.responses.retrieve(made.id).catch((error: unknown) => error);
    expect(read).toBeInstanceOf(OpenAI.NotFoundError);
    expect((read as Error).message).toContain(`no response with id '${made.id}'`);
    const items = await carol.responses.inputItems.list(made.id).catch((error: unknown) => error);
    expect(items).toBeInstanceOf(OpenAI.NotFoundError);
    const continued = await carol.responses
      .create({ model: 'demo/echo', input: 'what did it say?', previous_response_id: made.id })
      .catch((error: unknown) => error);
    expect(continued).toBeInstanceOf(OpenAI.BadRequestError);
    const deleted = await carol.responses.delete(made.id).catch((error: unknown) => error);
    expect(deleted).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('follows the conversation: a later turn made without retrieval is not shared either', async () => {
    const first = await alice.responses.create({ model: 'demo/echo', input: 'my performance review raise' }, private_);
    const second = await alice.responses.create({
      model: 'demo/echo',
      input: 'thanks',
      previous_response_id: first.id,
    });
    expect((await alice.responses.retrieve(second.id)).id).toBe(second.id);
    expect(await carol.responses.retrieve(second.id).catch((error: unknown) => error)).toBeInstanceOf(
      OpenAI.NotFoundError,
    );
  });

  it('is shared as before when the teammate may read every collection it was made with', async () => {
    const made = await alice.responses.create(
      { model: 'demo/echo', input: 'vacation days carry over' },
      { headers: { 'x-gatehouse-rag': 'handbook' } },
    );
    expect((await carol.responses.retrieve(made.id)).output_text).toContain('carry over');
    const plain = await alice.responses.create({ model: 'demo/echo', input: 'no retrieval here' });
    const next = await carol.responses.create({ model: 'demo/echo', input: 'and?', previous_response_id: plain.id });
    expect(next.output_text).toContain('and?');
  });

  it('stops being shared when the teammate loses access to the collection', async () => {
    const made = await alice.responses.create(
      { model: 'demo/echo', input: 'vacation days carry over' },
      { headers: { 'x-gatehouse-rag': 'handbook' } },
    );
    expect((await carol.responses.retrieve(made.id)).id).toBe(made.id);
    await h.admin('PATCH', '/internal/rag/collections/handbook', { access: { users: ['alice'], teams: [] } });
    expect(await carol.responses.retrieve(made.id).catch((error: unknown) => error)).toBeInstanceOf(
      OpenAI.NotFoundError,
    );
    expect((await alice.responses.retrieve(made.id)).id).toBe(made.id);
  });

  it('is not shared through a collection deleted and made again under its name, open to all', async () => {
    await h.admin('POST', '/internal/rag/collections', { name: 'secret', access: { users: ['alice'] } });
    await h.admin('POST', '/internal/rag/collections/secret/documents', {
      key: 'deal.md',
      content: '# Deal\n\nWe plan to acquire Initech next quarter.',
    });
    const made = await alice.responses.create(
      { model: 'demo/echo', input: 'acquire Initech' },
      { headers: { 'x-gatehouse-rag': 'secret' } },
    );
    expect(await carol.responses.retrieve(made.id).catch((error: unknown) => error)).toBeInstanceOf(
      OpenAI.NotFoundError,
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await h.admin('DELETE', '/internal/rag/collections/secret')).status).toBe(204);
    expect(
      (await h.admin('POST', '/internal/rag/collections', { name: 'secret', description: 'now a public FAQ' })).status,
    ).toBe(201);

    expect(await carol.responses.retrieve(made.id).catch((error: unknown) => error)).toBeInstanceOf(
      OpenAI.NotFoundError,
    );
    const continued = await carol.responses
      .create({ model: 'demo/echo', input: 'what was the plan?', previous_response_id: made.id })
      .catch((error: unknown) => error);
    expect(continued).toBeInstanceOf(OpenAI.BadRequestError);
    expect((await alice.responses.retrieve(made.id)).id).toBe(made.id);
  });
});
