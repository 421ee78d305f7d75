import type { AdminAnswer } from '../support/temp-servers.js';

/** The usage row of a request, once the recorder has written it (rows are group-committed). */
export async function usageRowOf(
  admin: (method: string, path: string) => Promise<AdminAnswer>,
  requestId: string,
): Promise<Record<string, unknown>> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const rows = (await admin('GET', '/internal/usage/logs?limit=20')).body.data as Array<Record<string, unknown>>;
    const row = rows.find((candidate) => candidate.request_id === requestId);
    if (row) return row;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no usage row for ${requestId}`);
}
