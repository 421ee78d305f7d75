import { useState, type ReactNode } from 'react';
import { useApi } from '../../api/api-context.js';
import { saveFile, downloadUsageCsv } from '../../api/usage-export.js';
import { Button } from '../../components/button.js';
import { showToast } from '../../components/toast.js';
import { formatInt } from '../../lib/format.js';
import { usageCsvFileName, usageTotalsCsv, type UsageTotalsRow } from './usage-totals-csv.js';

/**
 * "Download CSV": every usage row of the screen's range, one per request, from the server's export;
 * the button, and a notice to show apart from it. A cut export (past the server's maximum rows) is
 * said on screen until the next download, not in a passing toast: the file looks complete.
 */
export function useUsageRowsDownload(since: string): { readonly button: ReactNode; readonly notice: ReactNode } {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ readonly text: string; readonly alert: boolean } | undefined>();

  const download = async (): Promise<void> => {
    setBusy(true);
    setProblem(undefined);
    try {
      const result = await downloadUsageCsv(
        api,
        { since, until: new Date().toISOString() },
        new AbortController().signal,
      );
      if (result.cut)
        setProblem({
          text: `The file holds the newest ${formatInt(result.rows)} requests only; older ones in this range are not in it. Choose a shorter range, or export the rest through the API (docs/gateway.md).`,
          alert: false,
        });
      else showToast(`Downloaded ${formatInt(result.rows)} request${result.rows === 1 ? '' : 's'} as CSV`);
    } catch (error) {
      setProblem({ text: `Could not download the usage rows: ${(error as Error).message}`, alert: true });
    } finally {
      setBusy(false);
    }
  };

  return {
    button: (
      <Button size="sm" busy={busy} onClick={() => void download()} title="One row per request in this range">
        Download CSV
      </Button>
    ),
    notice: problem && (
      <div
        className="notice notice-warning"
        role={problem.alert ? 'alert' : 'status'}
        data-testid="usage-download-problem"
      >
        {problem.text}
      </div>
    ),
  };
}

/** Saves the totals table as the screen shows it (per model, key, ...), computed here from the figures on screen. */
export function UsageTotalsDownload({
  groupHeader,
  rows,
  since,
}: {
  readonly groupHeader: string;
  readonly rows: readonly UsageTotalsRow[];
  readonly since: string;
}) {
  const save = (): void => {
    const csv = usageTotalsCsv(groupHeader, rows);
    const what = `per-${groupHeader.toLowerCase()}`;
    saveFile(
      new Blob([csv], { type: 'text/csv;charset=utf-8' }),
      usageCsvFileName(what, since, new Date().toISOString()),
    );
  };
  return (
    <Button size="sm" onClick={save} aria-label={`Download the per-${groupHeader.toLowerCase()} table as CSV`}>
      Download table as CSV
    </Button>
  );
}
