import { describe, expect, it } from 'vitest';
import { responsesTestBed } from '../support/responses-test-bed.js';

/**
 * A native answer whose id is already kept is kept (and answered) under an id of the gateway's own.
 * Deleting it deleted, at the provider, a response by the gateway's id, which the provider never
 * issued, and left the provider's copy behind: the provider is asked to delete its own id.
 */
describe('DELETE /v1/responses/{id} of a response kept under an id of its own', () => {
  const bed = responsesTestBed('sk-renamed-delete-0123456789');

  it("deletes the provider's copy by the provider's id", async () => {
    // The mock's Responses API answers every request with this id.
    const first = await bed.client.responses.create({ model: 'native-model', input: 'first', store: true });
    const renamed = await bed.client.responses.create({ model: 'native-model', input: 'second', store: true });
    expect(first.id).toBe('resp_mock123');
    expect(renamed.id).not.toBe(first.id);

    expect(await bed.client.responses.delete(renamed.id)).toMatchObject({ id: renamed.id, deleted: true });
    const deletions = bed.upstream.requests.filter((request) => request.method === 'DELETE');
    expect(deletions.map((request) => request.path)).toEqual(['/v1/responses/resp_mock123']);
    // The other turn the gateway kept under the provider's id is still there.
    expect((await bed.client.responses.retrieve(first.id)).output_text).toBe('You said: first');
  });

  it("deletes a streamed one by the provider's id too", async () => {
    const stream = await bed.client.responses.create({
      model: 'native-model',
      input: 'third',
      store: true,
      stream: true,
    });
    let id: string | undefined;
    for await (const event of stream) if (event.type === 'response.completed') id = event.response.id;
    expect(id).not.toBe('resp_mock123');
    bed.upstream.reset();
    await bed.client.responses.delete(id!);
    expect(bed.upstream.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'DELETE /v1/responses/resp_mock123',
    ]);
  });
});
