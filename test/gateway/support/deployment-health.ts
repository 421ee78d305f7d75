/** Calls the admin API (the harness's `admin`, or `gatewayAdmin`). */
type Admin = (method: string, path: string) => Promise<{ readonly body: any }>;

/** One deployment's entry of `GET /internal/deployments/health`. */
export async function healthOf(admin: Admin, id: string): Promise<any> {
  const answer = await admin('GET', '/internal/deployments/health');
  return answer.body.data.find((entry: { id: string }) => entry.id === id);
}

/**
 * The entry once it counts `requests` calls: the record of a call its client left follows the
 * client's leaving, and a stream's follows its end.
 */
export async function settledHealth(admin: Admin, id: string, requests: number): Promise<any> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const entry = await healthOf(admin, id);
    if (entry !== undefined && entry.requests >= requests) return entry;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return healthOf(admin, id);
}
