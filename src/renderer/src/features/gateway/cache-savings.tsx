import { useCacheSavings, type CacheSaver, type CacheSavingsWindow } from '../../api/cache-queries.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { formatCompact, formatCost, formatInt } from '../../lib/format.js';

/** Hits of all lookups (hits and misses), or a dash when there was none to rate. */
function hitRate(window: CacheSavingsWindow): string {
  const lookups = window.hits + window.misses;
  return lookups === 0 ? '—' : `${((window.hits / lookups) * 100).toFixed(lookups >= 1000 ? 1 : 0)}%`;
}

function SaversTable({ title, savers }: { readonly title: string; readonly savers: readonly CacheSaver[] }) {
  if (savers.length === 0) return null;
  return (
    <>
      <h3 className="section-title">{title}</h3>
      <div className="data-table-scroll">
        <table className="data-table" aria-label={title}>
          <thead>
            <tr>
              <th>{title.startsWith('Models') ? 'Model' : 'Key'}</th>
              <th className="align-right">Hits</th>
              <th className="align-right">Dollars saved</th>
            </tr>
          </thead>
          <tbody>
            {savers.map((saver) => (
              <tr key={saver.group}>
                <td className="mono">{saver.label}</td>
                <td className="align-right">{formatInt(saver.hits)}</td>
                <td className="align-right">{formatCost(saver.savedUsd)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/**
 * What the cache saved: hit rate, tokens and dollars over three windows, and the models and keys it
 * saved most for, from the usage rows (kept across restarts, unlike the counters under "Now").
 */
export function CacheSavingsPanel() {
  const savings = useCacheSavings();
  const data = savings.data;
  const nothingYet = data !== undefined && data.windows.every((window) => window.hits === 0);
  return (
    <section className="panel" data-testid="cache-savings" aria-labelledby="cache-savings-title">
      <h2 className="panel-title" id="cache-savings-title">
        Saved by the cache
      </h2>
      <p className="panel-text">
        From the usage records, so a restart keeps them. A hit is charged nothing; what it saved is what its kept answer
        cost, at today&apos;s prices. Hit rate: hits of all lookups (hits and misses; bypassed and refreshed requests
        are no lookups).
      </p>
      {data === undefined ? (
        savings.isError ? (
          <ErrorMessage
            error={savings.error}
            title="Could not load what the cache saved"
            onRetry={() => void savings.refetch()}
            retrying={savings.isFetching}
          />
        ) : (
          <Loading />
        )
      ) : (
        <>
          <div className="data-table-scroll">
            <table className="data-table" aria-label="Cache savings by period">
              <thead>
                <tr>
                  <th>Period</th>
                  <th className="align-right">Hit rate</th>
                  <th className="align-right">Hits / misses</th>
                  <th className="align-right">Tokens saved</th>
                  <th className="align-right">Dollars saved</th>
                </tr>
              </thead>
              <tbody>
                {data.windows.map((window) => (
                  <tr key={window.label}>
                    <td>{window.label}</td>
                    <td className="align-right">{hitRate(window)}</td>
                    <td className="align-right">
                      {formatInt(window.hits)} / {formatInt(window.misses)}
                    </td>
                    <td className="align-right" title={formatInt(window.savedTokens)}>
                      {formatCompact(window.savedTokens)}
                    </td>
                    <td className="align-right">{formatCost(window.savedUsd)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {nothingYet ? (
            <p className="panel-text" data-testid="cache-savings-empty">
              Nothing saved yet: no request was answered from the cache in the last 7 days.
            </p>
          ) : (
            <>
              <SaversTable title="Models that saved most (7 days)" savers={data.topModels} />
              <SaversTable title="Keys that saved most (7 days)" savers={data.topKeys} />
            </>
          )}
        </>
      )}
    </section>
  );
}
