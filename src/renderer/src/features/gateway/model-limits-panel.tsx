import type { LimitStatus } from '../../../../shared/principals-api.js';
import { LimitMeters } from './limit-meters.js';

/**
 * The models' shared limits (`limits.models` of the configuration file): every caller of a model draws
 * on them, whatever its key, user or team. Read-only here, since only the file sets them; shown only
 * when some model has one.
 */
export function ModelLimitsPanel({ limits }: { readonly limits: Readonly<Record<string, readonly LimitStatus[]>> }) {
  const models = Object.keys(limits).sort();
  if (models.length === 0) return null;
  return (
    <section className="panel" data-testid="model-limits">
      <h2 className="panel-title">Shared model limits</h2>
      <p className="panel-text">
        Set in the configuration file (limits.models) and shared by every caller of the model, as the upstream&apos;s
        own quota is. A request must fit these beside its key&apos;s, user&apos;s and team&apos;s limits.
      </p>
      <dl className="detail-grid">
        {models.map((model) => (
          <div className="detail-item" key={model}>
            <dt className="mono model-limits-name">{model}</dt>
            <dd>
              <LimitMeters limits={limits[model]} showOwner={false} testId={`model-limits-${model}`} />
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
