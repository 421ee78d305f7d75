import { describe, expect, it } from 'vitest';
import { responsesTestBed } from '../support/responses-test-bed.js';

const KEY = 'sk-delete-upstream-0123456789';

/**
 * A response a provider's own Responses API answered was kept there too (the gateway sends
 * `store: true`, so its item ids can be replayed): deleting it deletes it there as well, so the
 * client's DELETE leaves no copy behind. A translated answer was never kept upstream.
 */
describe('DELETE /v1/responses/{id}', () => {
  const bed = responsesTestBed(KEY);

  it("deletes a native response at the provider too, with the deployment's key", async () => {
    const created = await bed.client.responses.create({ model: 'native-model', input: 'secret', store: true });
    expect(bed.upstream.lastRequest()!.body.store).toBe(true);
    expect(await bed.client.responses.delete(created.id)).toMatchObject({ id: created.id, deleted: true });
    const deletion = bed.upstream.requests.find((request) => request.method === 'DELETE');
    expect(deletion).toMatchObject({ path: `/v1/responses/${created.id}` });
    expect(deletion!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(await bed.client.responses.retrieve(created.id).catch((error: { status: number }) => error.status)).toBe(
      404,
    );
  });

  it('asks nothing of the provider for a translated response, which it never kept', async () => {
    const created = await bed.client.responses.create({ model: 'bridged-model', input: 'hi', store: true });
    bed.upstream.reset();
    await bed.client.responses.delete(created.id);
    expect(bed.upstream.requests).toEqual([]);
  });
});
