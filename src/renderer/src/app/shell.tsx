import { useCallback, useState } from 'react';
import { useGatewayEvents } from '../api/gateway-events.js';
import { useStoreChanges } from '../api/store-changes.js';
import { LeavePrompt } from './leave-prompt.js';
import { ShortcutsDialog } from './shortcuts-dialog.js';
import { useGlobalShortcuts } from './shortcuts.js';
import { Screen } from './routes.js';
import { href, navigate, useLocation } from './router.js';
import { Sidebar } from './sidebar.js';

/** Sidebar plus the current screen, and the app-wide shortcuts. */
export function Shell() {
  const [help, setHelp] = useState(false);
  const location = useLocation();
  const go = useCallback((path: string) => {
    // Store screens keep the scope in their query; carry it over.
    const params = new URLSearchParams(window.location.search);
    const keep = path.startsWith('store/')
      ? { ns: params.get('ns') ?? undefined, branch: params.get('branch') ?? undefined }
      : {};
    navigate(href(path, keep));
  }, []);
  const showHelp = useCallback(() => setHelp(true), []);
  useGlobalShortcuts(go, showHelp);
  // One live connection for the whole session: traffic keeps buffering while other screens show.
  useGatewayEvents();
  // The store has no such stream: writes made elsewhere are found by reading its namespace list.
  useStoreChanges();
  return (
    <div className="app">
      <Sidebar onShowShortcuts={showHelp} />
      <main className="main" key={location.path}>
        <Screen path={location.path} />
      </main>
      {help && <ShortcutsDialog onClose={() => setHelp(false)} />}
      <LeavePrompt />
    </div>
  );
}
