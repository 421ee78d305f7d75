import type { ReactNode } from 'react';
import { useServiceHealth } from '../../api/health.js';
import type { Service } from '../../api/http.js';
import { useNamespaces } from '../../api/store-queries.js';
import { useHealthSummary } from '../../app/health-status.js';
import { href, Link } from '../../app/router.js';
import { AddressText } from '../../components/address-text.js';
import { StatusDot } from '../../components/badge.js';
import { CopyButton } from '../../components/copy-button.js';
import { ActivityIcon, HistoryIcon, KeyIcon } from '../../components/icons.js';
import { PageBody, PageHeader } from '../../components/page.js';
import { useSession } from '../../connection/connection-context.js';
import { plural } from '../../lib/format.js';
import { readinessCheckLabel, readinessStateLabel } from '../../lib/readiness-labels.js';
import { applyExample } from '../store/store-empty.js';
import { scopeQuery, useScope } from '../store/use-scope.js';

function ServiceCard({
  service,
  title,
  address,
  description,
  children,
}: {
  readonly service: Service;
  readonly title: string;
  readonly address: string;
  readonly description: string;
  readonly children?: ReactNode;
}) {
  const summary = useHealthSummary(service);
  const health = useServiceHealth(service);
  return (
    <section className="panel service-card" data-testid={`service-${service}`}>
      <div className="service-card-head">
        <h2 className="panel-title">{title}</h2>
        <span className="service-state" data-state={summary.tone}>
          <StatusDot tone={summary.tone} />
          {summary.label}
        </span>
      </div>
      <p className="panel-text">{description}</p>
      <dl className="detail-grid">
        <div className="detail-item detail-item-wide">
          <dt>Address</dt>
          <dd>
            <AddressText address={address} />
          </dd>
        </div>
        {Object.entries(health.data?.checks ?? {}).map(([name, state]) => (
          <div key={name} className="detail-item">
            <dt>{readinessCheckLabel(name)}</dt>
            <dd className="check-state">
              <StatusDot tone={state === 'ok' ? 'success' : 'warning'} />
              {readinessStateLabel(state)}
            </dd>
          </div>
        ))}
      </dl>
      {children}
    </section>
  );
}

function Step({
  icon,
  title,
  children,
  to,
  action,
}: {
  readonly icon: ReactNode;
  readonly title: string;
  readonly children: ReactNode;
  readonly to: string;
  readonly action: string;
}) {
  return (
    <div className="step">
      <div className="step-icon">{icon}</div>
      <div className="step-body">
        <div className="step-title">{title}</div>
        <div className="muted">{children}</div>
      </div>
      <Link to={to} className="btn btn-secondary btn-sm">
        <span>{action}</span>
      </Link>
    </div>
  );
}

/** Both services at a glance, and the first steps for a new user. */
export function OverviewScreen() {
  const { connection } = useSession();
  const namespaces = useNamespaces();
  const scope = useScope();
  const example = applyExample(connection.storeUrl, { namespace: 'default', branch: 'main' });
  return (
    <>
      <PageHeader
        title="Overview"
        subtitle={`Gatehouse ${connection.version}, ${connection.mode === 'desktop' ? 'desktop app' : 'in the browser'}`}
      />
      <PageBody>
        <div className="card-grid">
          <ServiceCard
            service="gateway"
            title="Model gateway"
            address={connection.gatewayUrl}
            description="One OpenAI- and Anthropic-compatible endpoint for every model, with keys, limits, usage and live traffic."
          >
            <div className="snippet snippet-address">
              <span className="muted">OpenAI base URL</span>
              <AddressText address={`${connection.gatewayUrl}/v1`} />
              <CopyButton text={`${connection.gatewayUrl}/v1`} what="OpenAI base URL" variant="ghost" />
            </div>
            {/* Anthropic's SDKs add /v1 themselves: given the OpenAI base URL they would call /v1/v1/messages. */}
            <div className="snippet snippet-address">
              <span className="muted">Anthropic base URL</span>
              <AddressText address={connection.gatewayUrl} />
              <CopyButton text={connection.gatewayUrl} what="Anthropic base URL" variant="ghost" />
            </div>
          </ServiceCard>
          <ServiceCard
            service="store"
            title="Document store"
            address={connection.storeUrl}
            description="Versioned documents in namespaces and branches: every change a revision, with diffs, checkpoints and rollback."
          >
            <div className="snippet">
              <span className="muted">Namespaces</span>
              <span>{namespaces.data ? plural(namespaces.data.namespaces.length, 'namespace') : '…'}</span>
            </div>
          </ServiceCard>
        </div>
        <section className="panel">
          <h2 className="panel-title">Get started</h2>
          <div className="steps">
            <Step icon={<KeyIcon />} title="Issue an API key" to={href('gateway/keys')} action="Keys">
              One per app or person, with scopes, models and budgets.
            </Step>
            <Step
              icon={<ActivityIcon />}
              title="Send a request and watch it arrive"
              to={href('gateway/traffic')}
              action="Live traffic"
            >
              Point any OpenAI or Anthropic client at its base URL above; try the offline model demo/echo.
            </Step>
            <Step
              icon={<HistoryIcon />}
              title="Apply documents to the store"
              to={href('store/history', scopeQuery(scope))}
              action="History"
            >
              Each apply is a revision you can diff, checkpoint and roll back.
            </Step>
          </div>
          <div className="section-title">First apply</div>
          <pre className="code-block">{example}</pre>
        </section>
      </PageBody>
    </>
  );
}
