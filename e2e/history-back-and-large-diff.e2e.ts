import type { Page } from '@playwright/test';
import { expect, openSignedIn, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

const numbered = (prefix: string, count: number, changed: (index: number) => boolean = () => true): string =>
  Array.from({ length: count }, (_, index) => (changed(index) ? `${prefix} ${index + 1}` : `same ${index + 1}`)).join(
    '\n',
  ) + '\n';

test('History: each revision chosen (click, j, End) is a step Back returns through; a reload keeps it', async ({
  page,
}) => {
  const namespace = freshNamespace('history', 'back');
  const ids: number[] = [];
  for (let version = 1; version <= 4; version++)
    ids.push((await apply(namespace, 'main', `version ${version}`, { 'a.txt': `${version}\n` })).revision);
  const [v1, v2, v3] = ids as [number, number, number, number];
  const heading = (name: string) => page.getByRole('heading', { name, exact: true });
  const at = (id: number) => new RegExp(`[?&]rev=${id}(&|$)`);

  await openSignedIn(page, screen('history', namespace));
  const log = page.getByRole('listbox', { name: 'Revisions' });
  await expect(heading('version 4')).toBeVisible();

  await log.getByRole('option', { name: /^version 3/ }).click();
  await expect(page).toHaveURL(at(v3));
  await log.getByRole('option', { name: /^version 2/ }).click();
  await expect(page).toHaveURL(at(v2));
  await page.keyboard.press('j');
  await expect(page).toHaveURL(at(v1));
  await expect(heading('version 1')).toBeVisible();

  await page.goBack();
  await expect(page).toHaveURL(at(v2));
  await expect(heading('version 2')).toBeVisible();
  await expect(log.getByRole('option', { selected: true })).toContainText('version 2');
  await page.goBack();
  await expect(page).toHaveURL(at(v3));
  await expect(heading('version 3')).toBeVisible();
  // The head, shown before any revision was chosen, is where Back ends before leaving History.
  await page.goBack();
  await expect(page).not.toHaveURL(/[?&]rev=/);
  await expect(page).toHaveURL(/\/store\/history\?/);
  await expect(heading('version 4')).toBeVisible();
  await page.goForward();
  await expect(page).toHaveURL(at(v3));
  await expect(heading('version 3')).toBeVisible();

  // End (the oldest revision) is a step too.
  await log.getByRole('option', { selected: true }).focus();
  await page.keyboard.press('End');
  await expect(page).toHaveURL(at(v1));
  await page.goBack();
  await expect(page).toHaveURL(at(v3));

  await page.reload();
  await expect(heading('version 3')).toBeVisible();
  await expect(log.getByRole('option', { selected: true })).toContainText('version 3');
});

test('a large change is not drawn until Load diff, which the keyboard reaches', async ({ page }) => {
  const namespace = freshNamespace('history', 'large-diff');
  // Every other line of 12,000 changed: 6,000 deleted and 6,000 added.
  const everyOther = (index: number) => index % 2 === 0;
  await apply(namespace, 'main', 'old', { 'big.txt': numbered('old', 12_000, everyOther), 'small.txt': 'a\n' });
  await apply(namespace, 'main', 'rewrite', { 'big.txt': numbered('new', 12_000, everyOther), 'small.txt': 'b\n' });

  await openSignedIn(page, screen('history', namespace, 'main', '&key=big.txt'));
  const gate = page.getByTestId('large-diff');
  await expect(gate).toHaveText(/^Large diff \(12,000 changed lines\) is not shown by default\.\s*Load diff$/);
  // The counts show all the same, but not a row of the diff.
  await expect(page.locator('.changes-diff-title .diff-stats-add')).toHaveText('+6000');
  await expect(page.locator('.changes-diff-title .diff-stats-del')).toHaveText('−6000');
  await expect(page.getByTestId('diff-view')).toHaveCount(0);
  await expect(page.getByRole('table', { name: 'Diff of big.txt' })).toHaveCount(0);

  // A small change of the same revision shows at once.
  await page.getByRole('option', { name: 'small.txt, modified' }).click();
  await expect(page.getByRole('table', { name: 'Diff of small.txt' })).toBeVisible();
  await page.getByRole('option', { name: 'big.txt, modified' }).click();

  const load = page.getByRole('button', { name: 'Load diff' });
  await expect(load).toHaveAccessibleDescription('Large diff (12,000 changed lines) is not shown by default.');
  await load.focus();
  await page.keyboard.press('Enter');
  const diff = page.getByRole('table', { name: 'Diff of big.txt' });
  await expect(diff).toBeFocused();
  await expect(diff.locator('tbody tr').first()).toContainText('old 1');
  await expect(page.getByRole('button', { name: 'Show all 12,000 rows' })).toBeVisible();
  await expect(gate).toHaveCount(0);
});

/**
 * Counts the diff rows React draws again: every commit, each diff `<tr>` whose props are new (a
 * re-render makes them anew; a row left alone keeps its own). Read through React's devtools hook,
 * which its production build calls on every commit.
 */
async function countDiffRowRenders(page: Page): Promise<void> {
  await page.addInitScript(() => {
    interface Fiber {
      readonly type: unknown;
      readonly memoizedProps: { readonly className?: unknown } | null;
      readonly child: Fiber | null;
      readonly sibling: Fiber | null;
    }
    const seen = new WeakSet<object>();
    const counter = { drawn: 0 };
    const visit = (root: Fiber): void => {
      const stack: Fiber[] = [root];
      while (stack.length > 0) {
        const fiber = stack.pop()!;
        const props = fiber.memoizedProps;
        if (fiber.type === 'tr' && props && /\bdiff-(row|gap)\b/.test(String(props.className)) && !seen.has(props)) {
          seen.add(props);
          counter.drawn++;
        }
        if (fiber.sibling) stack.push(fiber.sibling);
        if (fiber.child) stack.push(fiber.child);
      }
    };
    Object.assign(globalThis, {
      diffRows: counter,
      __REACT_DEVTOOLS_GLOBAL_HOOK__: {
        supportsFiber: true,
        isDisabled: false,
        renderers: new Map(),
        inject: () => 1,
        onCommitFiberRoot: (_id: number, root: { readonly current: Fiber }) => visit(root.current),
        onCommitFiberUnmount: () => undefined,
        onPostCommitFiberRoot: () => undefined,
      },
    });
  });
}

const drawnRows = (page: Page): Promise<number> =>
  page.evaluate(() => (globalThis as unknown as { diffRows: { drawn: number } }).diffRows.drawn);

test('an open diff draws its rows once: neither the store poll nor Next change draws them again', async ({ page }) => {
  const namespace = freshNamespace('history', 'diff-idle');
  const every3rd = (index: number) => index % 3 === 0;
  await apply(namespace, 'main', 'old', { 'doc.txt': numbered('old', 900, every3rd) });
  await apply(namespace, 'main', 'new', { 'doc.txt': numbered('new', 900, every3rd) });
  await countDiffRowRenders(page);

  await openSignedIn(page, screen('history', namespace));
  const diff = page.getByRole('table', { name: 'Diff of doc.txt' });
  await expect(diff.locator('tbody tr.diff-row')).toHaveCount(900);
  const status = page.getByTestId('diff-nav').getByRole('status');
  await expect(status).toHaveText(/^300 changes/);
  const drawn = await drawnRows(page);
  expect(drawn).toBeGreaterThanOrEqual(900);

  // Two reads of the namespace list (the poll that follows writes from elsewhere) re-render the screen.
  for (let poll = 0; poll < 2; poll++)
    await page.waitForResponse((response) => /\/v1\/namespaces\?/.test(response.url()));
  // A macrotask later, whatever the last answer set off has committed.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
  expect(await drawnRows(page)).toBe(drawn);

  await page.getByRole('button', { name: 'Next change' }).click();
  await page.getByRole('button', { name: 'Next change' }).click();
  await expect(status).toHaveText(/^Change 2 of 300/);
  expect(await drawnRows(page)).toBe(drawn);
});
