import { useEffect, type ComponentType } from 'react';
import { EmptyState } from '../components/feedback.js';
import { AuditScreen } from '../features/gateway/audit/audit-screen.js';
import { GuardrailsScreen } from '../features/gateway/guardrails-screen.js';
import { CacheScreen } from '../features/gateway/cache-screen.js';
import { KeysScreen } from '../features/gateway/keys-screen.js';
import { ModelsScreen } from '../features/gateway/models-screen.js';
import { PeopleScreen } from '../features/gateway/people/people-screen.js';
import { TrafficScreen } from '../features/gateway/traffic-screen.js';
import { UsageScreen } from '../features/gateway/usage-screen.js';
import { OverviewScreen } from '../features/overview/overview-screen.js';
import { CollectionsScreen } from '../features/rag/collections-screen.js';
import { BranchesScreen } from '../features/store/branches-screen.js';
import { CheckpointsScreen } from '../features/store/checkpoints-screen.js';
import { CompareScreen } from '../features/store/compare-screen.js';
import { DocumentsScreen } from '../features/store/documents-screen.js';
import { HistoryScreen } from '../features/store/history-screen.js';
import { MaintenanceScreen } from '../features/store/maintenance-screen.js';
import { href, Link } from './router.js';

/** Every screen by its path below `/ui/`. */
export const ROUTES: Readonly<Record<string, { readonly title: string; readonly screen: ComponentType }>> = {
  '': { title: 'Overview', screen: OverviewScreen },
  'store/history': { title: 'History', screen: HistoryScreen },
  'store/documents': { title: 'Documents', screen: DocumentsScreen },
  'store/compare': { title: 'Compare', screen: CompareScreen },
  'store/branches': { title: 'Branches', screen: BranchesScreen },
  'store/checkpoints': { title: 'Checkpoints', screen: CheckpointsScreen },
  'store/maintenance': { title: 'Maintenance', screen: MaintenanceScreen },
  'gateway/traffic': { title: 'Live traffic', screen: TrafficScreen },
  'gateway/keys': { title: 'API keys', screen: KeysScreen },
  'gateway/people': { title: 'Users & teams', screen: PeopleScreen },
  'gateway/models': { title: 'Models', screen: ModelsScreen },
  'gateway/usage': { title: 'Usage', screen: UsageScreen },
  'gateway/collections': { title: 'Collections', screen: CollectionsScreen },
  'gateway/guardrails': { title: 'PII & policy', screen: GuardrailsScreen },
  'gateway/cache': { title: 'Cache', screen: CacheScreen },
  'gateway/audit': { title: 'Audit', screen: AuditScreen },
};

/** The screen for a path, or a way back when there is none. */
export function Screen({ path }: { readonly path: string }) {
  const route = ROUTES[path];
  useEffect(() => {
    document.title = route ? `${route.title} · Gatehouse` : 'Gatehouse';
  }, [route]);
  if (!route) {
    return (
      <EmptyState
        title="There is no such screen"
        action={
          <Link to={href('')} className="btn btn-secondary btn-md">
            <span>Go to the overview</span>
          </Link>
        }
      >
        <span className="mono">/ui/{path}</span>
      </EmptyState>
    );
  }
  const ScreenComponent = route.screen;
  return <ScreenComponent />;
}
