import OpenAI from 'openai';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { responsesTestBed } from '../support/responses-test-bed.js';

/**
 * `GET /v1/responses/{id}?stream=true` (the openai SDK's `responses.stream({ response_id })`, its
 * helper to resume a dropped stream, and `responses.retrieve(id, { stream: true })`): the gateway
 * keeps only a response's final object, and rebuilds a finished one's events from it, so the helper
 * ends with the kept object; `starting_after` sends only the events after that sequence number.
 */
describe('streaming a kept response again', () => {
  const bed = responsesTestBed('sk-upstream-stream-resume-0123456789');

  /** The kept Response object, as the gateway answers it (no SDK additions such as output_text). */
  const keptObject = async (id: string): Promise<Record<string, unknown>> => {
    const answer = await fetch(`${bed.client.baseURL}/responses/${id}`, {
      headers: { authorization: `Bearer ${bed.client.apiKey}` },
    });
    expect(answer.status).toBe(200);
    return (await answer.json()) as Record<string, unknown>;
  };

  /** The events of `GET /v1/responses/{id}?stream=true`, read with the SDK's retrieve. */
  const retrievedEvents = async (id: string, startingAfter?: number): Promise<ResponseStreamEvent[]> => {
    const stream = await bed.client.responses.retrieve(id, {
      stream: true,
      ...(startingAfter === undefined ? {} : { starting_after: startingAfter }),
    });
    const events: ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    return events;
  };

  /** What the SDK's resume helper emits and ends with. */
  const resumed = async (id: string, startingAfter?: number) => {
    const stream = bed.client.responses.stream({ response_id: id, starting_after: startingAfter });
    const events: ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    return { events, final: await stream.finalResponse() };
  };

  const failure = (promise: Promise<unknown>): Promise<unknown> => promise.catch((error: unknown) => error);

  it('replays a finished translated stream, so the SDK resume helper ends with the kept object', async () => {
    bed.upstream.setNext({
      reply: {
        reasoning: 'first think',
        text: 'Here is the call.',
        toolCalls: [{ id: 'call_1', name: 'lookup', arguments: { city: 'Oslo' } }],
      },
    });
    const live = await bed.client.responses.create({
      model: 'bridged-model',
      input: 'look it up',
      store: true,
      stream: true,
      tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object' }, strict: false }],
    });
    let liveFinal: unknown;
    for await (const event of live) if (event.type === 'response.completed') liveFinal = event.response;
    const id = (liveFinal as { id: string }).id;
    const kept = await keptObject(id);
    expect(kept.output).toHaveLength(3);

    const { events, final } = await resumed(id);
    expect(final).toMatchObject(kept);
    expect(final.output_text).toBe('Here is the call.');
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const created = events[0] as Extract<ResponseStreamEvent, { type: 'response.created' }>;
    expect(created.response).toMatchObject({ id, status: 'in_progress', output: [], usage: null });
    expect(events.at(-1)).toMatchObject({ response: kept });
    // The upstream was called once, by the first request: a replay calls no model.
    expect(bed.upstream.requests).toHaveLength(1);
  });

  it('sends only the events after starting_after, and the helper resumes from there', async () => {
    const kept = await bed.client.responses.create({ model: 'bridged-model', input: 'resume me', store: true });
    const all = await retrievedEvents(kept.id);
    expect(all.at(-1)?.type).toBe('response.completed');

    const rest = await retrievedEvents(kept.id, 3);
    expect(rest.map((event) => event.sequence_number)).toEqual(all.slice(4).map((event) => event.sequence_number));
    expect(rest).toEqual(all.slice(4));
    expect(await retrievedEvents(kept.id, all.length - 1)).toEqual([]);

    const { events, final } = await resumed(kept.id, 3);
    expect(events.map((event) => event.sequence_number)).toEqual(all.slice(4).map((event) => event.sequence_number));
    expect(final).toMatchObject(await keptObject(kept.id));
    expect(final.output_text).toBe('You said: resume me');
  });

  it("replays a native Responses API's kept answer as it was kept", async () => {
    const kept = await bed.client.responses.create({ model: 'native-model', input: 'native one', store: true });
    const { final } = await resumed(kept.id);
    expect(final).toMatchObject(await keptObject(kept.id));
    expect(final.output_text).toBe('You said: native one');
  });

  it('ends an incomplete, a cancelled and a failed response with the event of its status', async () => {
    bed.upstream.setNext({ reply: { text: 'cut short', finishReason: 'length' } });
    const incomplete = await bed.client.responses.create({ model: 'bridged-model', input: 'long', store: true });
    expect(incomplete.status).toBe('incomplete');
    const cut = await resumed(incomplete.id);
    expect(cut.events.at(-1)?.type).toBe('response.incomplete');
    expect(cut.final).toMatchObject(await keptObject(incomplete.id));

    bed.upstream.setNext({ reply: { text: 'one two three four five six' }, frameDelayMs: 40 });
    const leaving = await bed.client.responses.create({
      model: 'bridged-model',
      input: 'count',
      store: true,
      stream: true,
    });
    let cancelledId: string | undefined;
    for await (const event of leaving) {
      if (event.type === 'response.created') cancelledId = event.response.id;
      if (event.type === 'response.output_text.delta') break;
    }
    expect(await bed.upstream.waitForOutcome(1)).toBe('aborted');
    const cancelledKept = await keptObject(cancelledId!);
    expect(cancelledKept.status).toBe('cancelled');
    const cancelled = await resumed(cancelledId!);
    expect(cancelled.events.at(-1)?.type).toBe('response.incomplete');
    expect(cancelled.final).toMatchObject(cancelledKept);

    bed.upstream.setNext({ streamErrorAfterFrames: 3 });
    let failedId: string | undefined;
    await (async () => {
      const stream = await bed.client.responses.create({
        model: 'native-model',
        input: 'fail',
        store: true,
        stream: true,
      });
      for await (const event of stream) if (event.type === 'response.created') failedId = event.response.id;
    })().catch(() => undefined);
    const failedKept = await keptObject(failedId!);
    expect(failedKept.status).toBe('failed');
    const failed = await resumed(failedId!);
    expect(failed.events.at(-1)?.type).toBe('response.failed');
    expect(failed.final).toMatchObject(failedKept);
  });

  it('is refused while the response is still being written, and for an id not kept', async () => {
    bed.upstream.setNext({ reply: { text: 'one two three four five six' }, frameDelayMs: 40 });
    const live = await bed.client.responses.create({
      model: 'bridged-model',
      input: 'slowly',
      store: true,
      stream: true,
    });
    let refused: unknown;
    for await (const event of live)
      if (event.type === 'response.created') refused = await failure(retrievedEvents(event.response.id));
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as Error).message).toMatch(
      /^400 query parameter stream cannot be true: response '.+' is still being written \(status in_progress\)/,
    );

    const missing = await failure(resumed('resp_never_kept'));
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('refuses a starting_after that is no sequence number, naming it', async () => {
    const kept = await bed.client.responses.create({ model: 'bridged-model', input: 'x', store: true });
    const answer = await fetch(`${bed.client.baseURL}/responses/${kept.id}?stream=true&starting_after=-1`, {
      headers: { authorization: `Bearer ${bed.client.apiKey}` },
    });
    expect(answer.status).toBe(400);
    const body = (await answer.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/starting_after/);
  });
});
