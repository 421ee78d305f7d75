import { useBranches, useNamespaces } from '../../api/store-queries.js';
import { navigate, useLocation, href } from '../../app/router.js';
import { Select } from '../../components/field.js';
import { useScope } from './use-scope.js';

/** Namespace and branch pickers: switching keeps the current store screen. */
export function ScopePicker() {
  const scope = useScope();
  const location = useLocation();
  const namespaces = useNamespaces();
  const branches = useBranches(scope);
  const onStoreScreen = location.path.startsWith('store/');
  const go = (ns: string, branch: string): void =>
    navigate(href(onStoreScreen ? location.path : 'store/history', { ns, branch }));

  const namespaceNames = namespaces.data?.namespaces.map((entry) => entry.name) ?? [];
  if (!namespaceNames.includes(scope.namespace)) namespaceNames.unshift(scope.namespace);
  const branchNames = branches.data?.branches.map((entry) => entry.name) ?? [];
  if (!branchNames.includes(scope.branch)) branchNames.unshift(scope.branch);

  return (
    <div className="scope-picker">
      <label className="scope-picker-row">
        <span className="scope-picker-label">Namespace</span>
        <Select
          aria-label="Namespace"
          data-testid="namespace-picker"
          value={scope.namespace}
          onChange={(event) => go(event.target.value, 'main')}
        >
          {namespaceNames.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </Select>
      </label>
      <label className="scope-picker-row">
        <span className="scope-picker-label">Branch</span>
        <Select
          aria-label="Branch"
          data-testid="branch-picker"
          value={scope.branch}
          onChange={(event) => go(scope.namespace, event.target.value)}
        >
          {branchNames.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </Select>
      </label>
    </div>
  );
}
