import type { ApiClient } from './http.js';

/** What a CSV export of the usage log held. */
export interface UsageCsvDownload {
  readonly rows: number;
  /** The export stopped at the server's maximum: rows older than its last are not in the file. */
  readonly cut: boolean;
}

/** The file name the server gave in its Content-Disposition, else `fallback`. */
function fileNameOf(disposition: string | null, fallback: string): string {
  return /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? fallback;
}

/** Hands `blob` to the browser as a download named `name`. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The click hands the file over before this runs; revoking at once can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Downloads the usage rows of `since`..`until` as CSV. Fetched with the UI's credentials in a header,
 * then saved from memory: a plain link would have to carry the master key in its address.
 */
export async function downloadUsageCsv(
  api: ApiClient,
  range: { readonly since: string; readonly until: string },
  signal: AbortSignal,
): Promise<UsageCsvDownload> {
  const query = new URLSearchParams({ format: 'csv', since: range.since, until: range.until });
  const response = await api.open('gateway', `/internal/usage/logs?${query}`, signal, { accept: 'text/csv' });
  const blob = await response.blob();
  saveFile(blob, fileNameOf(response.headers.get('content-disposition'), 'usage.csv'));
  return {
    rows: Number(response.headers.get('x-gatehouse-export-rows') ?? 0),
    cut: response.headers.has('x-gatehouse-export-next-cursor'),
  };
}
