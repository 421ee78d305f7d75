import { Kbd } from '../components/badge.js';
import { Dialog } from '../components/dialog.js';
import { GO_TO_KEYS } from './go-to-keys.js';

const LIST_KEYS: readonly [string[], string][] = [
  [['j', '↓'], 'Next item'],
  [['k', '↑'], 'Previous item'],
  [['Home', 'End'], 'First / last item'],
  [['Enter'], 'Open the item'],
  [['Esc'], 'Close the drawer or dialog'],
  [['u'], 'Diff: unified / side by side'],
  [['[', ']'], 'Diff: previous / next change'],
  [['/'], 'Focus the filter'],
  [['↓', 'Enter'], 'In a filter: to the first match / open it'],
  [['Esc'], 'In a filter: clear it, then back to the list'],
  [['Space'], 'Live traffic: pause / resume'],
  [['Ctrl/⌘', 'S'], 'Save the screen’s unsaved changes'],
  [['Shift', 'T'], 'Light / dark theme'],
  [['?'], 'This help'],
];

/** Lists every keyboard shortcut. */
export function ShortcutsDialog({ onClose }: { readonly onClose: () => void }) {
  return (
    <Dialog title="Keyboard shortcuts" onClose={onClose} testId="shortcuts-dialog">
      <div className="shortcuts">
        <section>
          <h3 className="section-title">Lists</h3>
          <dl className="shortcut-list">
            {LIST_KEYS.map(([keys, label]) => (
              <div key={label} className="shortcut-row">
                <dt>
                  {keys.map((key) => (
                    <Kbd key={key}>{key}</Kbd>
                  ))}
                </dt>
                <dd>{label}</dd>
              </div>
            ))}
          </dl>
        </section>
        <section>
          <h3 className="section-title">Go to</h3>
          <dl className="shortcut-list">
            {Object.entries(GO_TO_KEYS).map(([key, target]) => (
              <div key={key} className="shortcut-row">
                <dt>
                  <Kbd>g</Kbd>
                  <Kbd>{key}</Kbd>
                </dt>
                <dd>{target.label}</dd>
              </div>
            ))}
          </dl>
        </section>
      </div>
    </Dialog>
  );
}
