import { useCallback, useEffect, useRef, useState, type MouseEvent } from 'react';
import { useGatewayEvents } from '../api/gateway-events.js';
import { useStoreChanges } from '../api/store-changes.js';
import { LeavePrompt } from './leave-prompt.js';
import { MenuBar } from './menu-bar.js';
import { ShortcutsDialog } from './shortcuts-dialog.js';
import { useGlobalShortcuts } from './shortcuts.js';
import { Screen } from './routes.js';
import { href, navigate, useLocation } from './router.js';
import { Sidebar } from './sidebar.js';
import { ErrorBoundary } from '../components/error-boundary.js';
import { scopeQuery, useScope, useScopeInAddress } from '../features/store/use-scope.js';
import { trafficHref } from '../features/gateway/traffic-filter-memory.js';
import { useScreenChangeFocus } from './use-screen-change-focus.js';

/** Sidebar plus the current screen, and the app-wide shortcuts. */
export function Shell() {
  const [help, setHelp] = useState(false);
  const location = useLocation();
  // Read when a shortcut fires, not a dependency of `go`: a new `go` would register the shortcuts
  // again and forget a `g` pressed just before (the scope changes as the namespaces are read).
  const currentScope = useScope();
  const scope = useRef(currentScope);
  scope.current = currentScope;
  const go = useCallback(
    // Store screens open on the scope the sidebar shows, named in their address as its links name it:
    // from a gateway screen too, so a link copied there never opens another namespace elsewhere.
    // Live traffic opens on the filter it last showed, as the sidebar's link does.
    (path: string) =>
      navigate(
        path === 'gateway/traffic'
          ? trafficHref()
          : href(path, path.startsWith('store/') ? scopeQuery(scope.current) : {}),
      ),
    [],
  );
  useScopeInAddress();
  const showHelp = useCallback(() => setHelp(true), []);
  useGlobalShortcuts(go, showHelp);
  // One live connection for the whole session: traffic keeps buffering while other screens show.
  useGatewayEvents();
  // The store has no such stream: writes made elsewhere are found by reading its namespace list.
  useStoreChanges();
  // In a narrow window the sidebar is a menu over the screen, closed until asked for (wider, it always shows).
  const [menu, setMenu] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const closeMenu = useCallback(() => {
    setMenu(false);
    toggle.current?.focus();
  }, []);
  // Following one of its links closes the menu, showing the screen it opened.
  useEffect(() => setMenu(false), [location.path]);
  useScreenChangeFocus(location.path, 'main');
  useEffect(() => {
    if (menu) document.getElementById('sidebar')?.querySelector<HTMLElement>('a[href]')?.focus();
  }, [menu]);
  const skipToContent = (event: MouseEvent<HTMLAnchorElement>): void => {
    event.preventDefault();
    const main = document.getElementById('main');
    if (!main) return;
    // Focusable only for this move: a click inside the screen must not take focus from its lists.
    main.tabIndex = -1;
    main.addEventListener('blur', () => main.removeAttribute('tabindex'), { once: true });
    main.focus();
  };
  return (
    <div className={menu ? 'app is-menu-open' : 'app'}>
      <a className="skip-link" href="#main" onClick={skipToContent}>
        Skip to content
      </a>
      <MenuBar open={menu} controls="sidebar" onToggle={() => setMenu((open) => !open)} toggleRef={toggle} />
      <Sidebar id="sidebar" onShowShortcuts={showHelp} onClose={closeMenu} />
      {menu && <div className="menu-backdrop" aria-hidden="true" onClick={closeMenu} />}
      <main className="main" id="main" key={location.path}>
        {/* A screen that fails to render shows the failure in its place; the sidebar stays usable. */}
        <ErrorBoundary resetKey={location.search}>
          <Screen path={location.path} />
        </ErrorBoundary>
      </main>
      {help && <ShortcutsDialog onClose={() => setHelp(false)} />}
      <LeavePrompt />
    </div>
  );
}
