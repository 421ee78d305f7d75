import type { ReactNode } from 'react';
import { useSession } from '../connection/connection-context.js';
import { ScopePicker } from '../features/store/scope-picker.js';
import { scopeQuery, useScope } from '../features/store/use-scope.js';
import { useTrafficHref } from '../features/gateway/traffic-filter-memory.js';
import {
  ActivityIcon,
  BranchIcon,
  BroomIcon,
  ChartIcon,
  CompareIcon,
  CubeIcon,
  DatabaseIcon,
  FilesIcon,
  HistoryIcon,
  HomeIcon,
  KeyboardIcon,
  KeyIcon,
  LogOutIcon,
  MoonIcon,
  ShieldIcon,
  SunIcon,
  TagIcon,
  UsersIcon,
} from '../components/icons.js';
import { toggleTheme, useTheme } from '../lib/theme.js';
import { HealthLine } from './health-status.js';
import { confirmLeave, href, Link, useLocation } from './router.js';

function NavItem({
  to,
  path,
  icon,
  children,
}: {
  readonly to: string;
  readonly path: string;
  readonly icon: ReactNode;
  readonly children: ReactNode;
}) {
  const location = useLocation();
  const active = location.path === path;
  return (
    <Link to={to} className={active ? 'nav-item is-active' : 'nav-item'} aria-current={active ? 'page' : undefined}>
      {icon}
      <span>{children}</span>
    </Link>
  );
}

/**
 * Navigation between the two services, the store scope, health of both, and app controls. `onClose` is
 * what Esc does inside it: in a narrow window, where it is a menu over the screen, that closes it.
 */
export function Sidebar({
  id,
  onShowShortcuts,
  onClose,
}: {
  readonly id: string;
  readonly onShowShortcuts: () => void;
  readonly onClose: () => void;
}) {
  const session = useSession();
  const scope = useScope();
  const theme = useTheme();
  const store = (path: string): string => href(path, scopeQuery(scope));
  const traffic = useTrafficHref();
  const { signOut } = session;
  return (
    <nav
      className="sidebar"
      id={id}
      aria-label="Main"
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !event.currentTarget.closest('.is-menu-open')) return;
        event.stopPropagation();
        onClose();
      }}
    >
      <div className="sidebar-brand">
        <span className="brand-mark" aria-hidden="true">
          G
        </span>
        <span className="brand-name">Gatehouse</span>
        <span className="brand-version">{session.connection.version}</span>
      </div>
      <div className="sidebar-scroll">
        <NavItem to={href('')} path="" icon={<HomeIcon />}>
          Overview
        </NavItem>
        <div className="nav-section">Document store</div>
        <ScopePicker />
        <NavItem to={store('store/history')} path="store/history" icon={<HistoryIcon />}>
          History
        </NavItem>
        <NavItem to={store('store/documents')} path="store/documents" icon={<FilesIcon />}>
          Documents
        </NavItem>
        <NavItem to={store('store/compare')} path="store/compare" icon={<CompareIcon />}>
          Compare
        </NavItem>
        <NavItem to={store('store/branches')} path="store/branches" icon={<BranchIcon />}>
          Branches
        </NavItem>
        <NavItem to={store('store/checkpoints')} path="store/checkpoints" icon={<TagIcon />}>
          Checkpoints
        </NavItem>
        <NavItem to={store('store/maintenance')} path="store/maintenance" icon={<BroomIcon />}>
          Maintenance
        </NavItem>
        <div className="nav-section">Model gateway</div>
        <NavItem to={traffic} path="gateway/traffic" icon={<ActivityIcon />}>
          Live traffic
        </NavItem>
        <NavItem to={href('gateway/keys')} path="gateway/keys" icon={<KeyIcon />}>
          Keys
        </NavItem>
        <NavItem to={href('gateway/people')} path="gateway/people" icon={<UsersIcon />}>
          Users &amp; teams
        </NavItem>
        <NavItem to={href('gateway/models')} path="gateway/models" icon={<CubeIcon />}>
          Models
        </NavItem>
        <NavItem to={href('gateway/usage')} path="gateway/usage" icon={<ChartIcon />}>
          Usage
        </NavItem>
        <NavItem to={href('gateway/guardrails')} path="gateway/guardrails" icon={<ShieldIcon />}>
          PII &amp; policy
        </NavItem>
        <NavItem to={href('gateway/collections')} path="gateway/collections" icon={<FilesIcon />}>
          Collections
        </NavItem>
        <NavItem to={href('gateway/cache')} path="gateway/cache" icon={<DatabaseIcon />}>
          Cache
        </NavItem>
        <NavItem to={href('gateway/audit')} path="gateway/audit" icon={<HistoryIcon />}>
          Audit
        </NavItem>
      </div>
      <div className="sidebar-footer">
        <HealthLine service="gateway" name="Gateway" />
        <HealthLine service="store" name="Store" />
        <div className="sidebar-tools">
          <button
            type="button"
            className="icon-button"
            onClick={toggleTheme}
            aria-label={theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}
            title="Theme (Shift+T)"
          >
            {theme === 'dark' ? <SunIcon /> : <MoonIcon />}
          </button>
          <button
            type="button"
            className="icon-button"
            onClick={onShowShortcuts}
            aria-label="Keyboard shortcuts"
            title="Keyboard shortcuts (?)"
          >
            <KeyboardIcon />
          </button>
          {signOut && (
            <button
              type="button"
              className="icon-button"
              onClick={() => confirmLeave(signOut)}
              aria-label="Sign out"
              title="Sign out"
            >
              <LogOutIcon />
            </button>
          )}
        </div>
      </div>
    </nav>
  );
}
