import type { Locator, Page } from '@playwright/test';
import { expect, gatewayAdmin, openSignedIn, storeCall, test } from './fixtures.js';

/** The few DOM members the in-page checks use: this file is type-checked without the DOM library. */
interface PageElement {
  readonly id: string;
  readonly tagName: string;
  readonly textContent: string | null;
  readonly scrollWidth: number;
  readonly clientWidth: number;
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
  closest(selector: string): PageElement | null;
  getBoundingClientRect(): {
    readonly left: number;
    readonly right: number;
    readonly width: number;
    readonly height: number;
  };
  scrollTo(x: number, y: number): void;
}
interface PageGlobals {
  readonly document: PageElement & { getElementById(id: string): PageElement | null };
  readonly innerWidth: number;
  getComputedStyle(element: PageElement): { readonly backgroundColor: string };
}

/** Issues a key through the admin API with a recognisable name. */
async function issueKey(name: string): Promise<{ id: string; key: string }> {
  const response = await gatewayAdmin('/internal/api-keys', 'POST', { name });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; key: string };
}

/** The texts a control's `aria-describedby` points at, joined; fails when an id does not resolve. */
async function description(control: Locator): Promise<string> {
  return control.evaluate((element: PageElement) => {
    const { document } = globalThis as unknown as PageGlobals;
    const ids = (element.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
    return ids
      .map((id: string) => {
        const target = document.getElementById(id);
        if (!target) throw new Error(`aria-describedby names a missing id: ${id}`);
        return target.textContent ?? '';
      })
      .join(' | ');
  });
}

const focused = (page: Page): Locator => page.locator(':focus');

test('dialogs start on their first field (or action) and give focus back to what opened them', async ({ page }) => {
  const name = `a11y-focus-${Date.now()}`;
  await issueKey(name);
  await openSignedIn(page, 'gateway/keys');

  const issue = page.getByTestId('issue-key');
  await issue.click();
  await expect(page.getByTestId('issue-key-dialog')).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('issue-key-dialog')).toBeHidden();
  await expect(issue).toBeFocused();

  // Cancel, not the Close button, and not the irreversible action.
  const row = page.getByTestId('keys-table').getByRole('row').filter({ hasText: name });
  // Each row's buttons are named with their key, not a column of identical "Revoke"s.
  const revoke = page.getByRole('button', { name: `Revoke ${name}`, exact: true });
  await expect(row.getByRole('button', { name: `Edit limits of ${name}`, exact: true })).toBeVisible();
  await revoke.click();
  const revokeDialog = page.getByTestId('revoke-key-dialog');
  await expect(revokeDialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await revokeDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(revokeDialog).toBeHidden();
  await expect(revoke).toBeFocused();

  // Opened from the keyboard on the table: focus goes back to the table.
  await row.click();
  await page.keyboard.press('Enter');
  const limits = page.getByTestId('edit-key-limits-dialog');
  await expect(limits.getByLabel('Requests per minute')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(limits).toBeHidden();
  await expect(page.getByTestId('keys-table')).toBeFocused();

  // A dialog without fields or a primary action (the shortcuts list) keeps focus inside it.
  await page.keyboard.press('?');
  await expect(focused(page)).toHaveCount(1);
  expect(await focused(page).evaluate((element: PageElement) => Boolean(element.closest('dialog[open]')))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('keys-table')).toBeFocused();
});

test('an invalid field is marked aria-invalid and described by its error and hint', async ({ page }) => {
  await openSignedIn(page, 'gateway/keys');
  await page.getByTestId('issue-key').click();
  const dialog = page.getByTestId('issue-key-dialog');
  await dialog.getByLabel('Name', { exact: true }).fill('a11y-check');
  const rpm = dialog.getByLabel('Requests per minute');
  await expect(rpm).not.toHaveAttribute('aria-invalid', 'true');
  await rpm.fill('lots');
  await dialog.getByTestId('confirm-issue-key').click();
  await expect(rpm).toHaveAttribute('aria-invalid', 'true');
  expect(await description(rpm)).toContain('whole number above 0');
  // Both the error and the hint describe a field that has both.
  const rag = dialog.getByLabel('RAG collections');
  await rag.fill('no spaces allowed');
  await dialog.getByTestId('confirm-issue-key').click();
  await expect(rag).toHaveAttribute('aria-invalid', 'true');
  const described = await description(rag);
  expect(described).toContain('Collection names use letters');
  expect(described).toContain('Comma separated');
  // A valid field with a hint is described by the hint alone.
  await expect(dialog.getByLabel('Name', { exact: true })).not.toHaveAttribute('aria-invalid', 'true');
  expect(await description(dialog.getByLabel('Name', { exact: true }))).toContain('What the key is for');
});

test('a required field says so by name, not in zod’s words', async ({ page }) => {
  await openSignedIn(page, 'gateway/people');
  await page.getByTestId('new-team').click();
  const dialog = page.getByTestId('principal-dialog');
  await dialog.getByTestId('confirm-principal').click();
  const id = dialog.getByLabel('Id', { exact: true });
  await expect(id).toHaveAttribute('aria-invalid', 'true');
  expect(await description(id)).toContain('Id is required');
  await expect(dialog).not.toContainText(/expected string|Too small|received undefined/);
  await page.keyboard.press('Escape');

  await page.goto(page.url().replace(/gateway\/people.*/, 'gateway/models'));
  await page.getByTestId('add-deployment').click();
  const deployment = page.getByTestId('deployment-dialog');
  await deployment.getByLabel('Weight').fill('heavy');
  await deployment.getByTestId('confirm-deployment').click();
  await expect(deployment.locator('.field-error')).toContainText(['Model is required', 'Weight must be a number']);
  await expect(deployment).not.toContainText(/expected string|Too small|received/);
});

test('PII & policy: an invalid pattern says, next to the disabled Save, why and where; the field shows the engine’s message', async ({
  page,
}) => {
  await openSignedIn(page, 'gateway/guardrails');
  await expect(page.getByTestId('policy-panel')).toBeVisible();
  // An override far down the screen, with a pattern the regex engine refuses.
  await page.getByRole('button', { name: 'Model override' }).click();
  const overrides = page.getByTestId('guardrails-overrides');
  await overrides.getByLabel('Override 1 model').selectOption('demo/echo');
  await overrides.getByRole('button', { name: /blocked patterns: inherit/ }).click();
  const patterns = overrides.getByLabel('Override 1 blocked patterns');
  await patterns.fill('fine\n(unclosed');
  await page.evaluate(() =>
    (globalThis as unknown as PageGlobals).document.querySelector('.page-body')?.scrollTo(0, 0),
  );

  const save = page.getByTestId('save-guardrails');
  await expect(save).toBeDisabled();
  const reason = page.getByTestId('save-blocked');
  await expect(reason).toBeInViewport();
  await expect(reason).toContainText('Save is disabled');
  await expect(reason).toContainText('"(unclosed" is not a valid regular expression');
  expect(await description(save)).toContain('Save is disabled');

  await expect(patterns).toHaveAttribute('aria-invalid', 'true');
  // The regex engine's own words, on the field.
  expect(await description(patterns)).toContain('"(unclosed" is not a valid regular expression: Unterminated group');

  await page.getByTestId('show-problem').click();
  await expect(patterns).toBeFocused();
  await expect(patterns).toBeInViewport();

  await patterns.fill('fine\n\\(closed\\)');
  await expect(save).toBeEnabled();
  await expect(patterns).not.toHaveAttribute('aria-invalid', 'true');
  await expect(reason).toHaveText('');
  await page.getByRole('button', { name: 'Discard' }).click();
});

test('tables fit from 1024 to 1280 px: the page never scrolls sideways and every row action is in view', async ({
  page,
}) => {
  const stamp = Date.now();
  const team = `a11y-team-with-a-rather-long-name-${stamp}`;
  const user = `someone.with.a.long.address.${stamp}@example.com`;
  await gatewayAdmin('/internal/teams', 'POST', { id: team, rpm_limit: 100, tpd_budget: 100_000, usd_daily_budget: 5 });
  await gatewayAdmin('/internal/users', 'POST', { id: user, team, rpm_limit: 50, tpd_budget: 20_000 });
  const created = await gatewayAdmin('/internal/api-keys', 'POST', {
    name: `a-very-long-key-name-for-the-laptop-of-someone-${stamp}`,
    user,
    team,
    scopes: ['chat', 'embeddings'],
    models: ['demo/echo', 'demo/embed'],
    rpm_limit: 10,
    tpm_limit: 10_000,
    user_tpm_budget: 1000,
    team_tpd_budget: 100_000,
  });
  expect(created.status).toBe(201);

  for (const width of [1024, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    for (const screen of ['gateway/keys', 'gateway/people']) {
      await openSignedIn(page, screen);
      const table = page.locator('table').first();
      await expect(table).toContainText(screen === 'gateway/keys' ? 'a-very-long-key-name' : team.slice(0, 20));
      const report = await page.evaluate(() => {
        const { document, innerWidth } = globalThis as unknown as PageGlobals;
        const body = document.querySelector('.page-body')!;
        const hidden = [...document.querySelectorAll('table button')].flatMap((button) => {
          const box = button.getBoundingClientRect();
          const frame = (button.closest('.data-table-scroll') ?? body).getBoundingClientRect();
          const inside =
            box.left >= frame.left - 0.5 && box.right <= Math.min(frame.right, innerWidth) + 0.5 && box.width > 0;
          return inside ? [] : [`${button.textContent?.trim()} at ${Math.round(box.left)}–${Math.round(box.right)}`];
        });
        return { pageOverflow: body.scrollWidth - body.clientWidth, hidden };
      });
      expect(report, `${screen} at ${width} px`).toEqual({ pageOverflow: 0, hidden: [] });
      if (screen === 'gateway/keys') {
        // A key's status lines ("never used", "used 5 minutes ago") each stay on one line beside the actions.
        const heights = await page
          .getByTestId('keys-table')
          .locator('td.cell-nowrap .cell-stack > *')
          .evaluateAll((lines: PageElement[]) => lines.map((line) => line.getBoundingClientRect().height));
        expect(heights.length, `status lines at ${width} px`).toBeGreaterThan(0);
        for (const height of heights) expect(height, `a status line at ${width} px`).toBeLessThan(30);
      }
    }
  }
  await openSignedIn(page, 'gateway/people');
  await expect(page.getByRole('button', { name: `Delete ${team}`, exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: `Edit ${user}`, exact: true })).toBeVisible();
  // The long name is cut short on screen, and whole in its title.
  await openSignedIn(page, 'gateway/keys');
  const name = page.getByText(`a-very-long-key-name-for-the-laptop-of-someone-${stamp}`);
  const cut = await name.evaluate((element: PageElement) => element.scrollWidth > element.clientWidth);
  expect(cut).toBe(true);
  await expect(name.locator('xpath=..')).toHaveAttribute('title', new RegExp(`laptop-of-someone-${stamp}`));
});

test('usage: a key has one colour in every chart and in the table, whatever each chart ranks first', async ({
  page,
  app,
}) => {
  const stamp = Date.now();
  const busy = await issueKey(`a11y-busy-${stamp}`);
  const wordy = await issueKey(`a11y-wordy-${stamp}`);
  const chat = async (key: string, content: string): Promise<void> => {
    const response = await fetch(`${app.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content }] }),
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
  };
  // Many short requests for one key, fewer but far longer ones for the other: the two charts rank them oppositely.
  for (let index = 0; index < 40; index += 1) await chat(busy.key, 'hi');
  for (let index = 0; index < 20; index += 1) await chat(wordy.key, 'many words here '.repeat(400));

  await openSignedIn(page, 'gateway/usage');
  await page.getByRole('radio', { name: 'Per key' }).click();
  const swatch = (chart: string, name: string) =>
    page
      .getByTestId(chart)
      .locator('.legend-item')
      .filter({ hasText: name })
      .locator('.legend-swatch')
      .evaluate(
        (element: PageElement) => (globalThis as unknown as PageGlobals).getComputedStyle(element).backgroundColor,
      );
  for (const name of [`a11y-busy-${stamp}`, `a11y-wordy-${stamp}`]) {
    await expect(page.getByTestId('chart-requests').locator('.legend-item').filter({ hasText: name })).toBeVisible();
    const colour = await swatch('chart-requests', name);
    expect(await swatch('chart-total_tokens', name), name).toBe(colour);
    expect(await swatch('chart-cost_usd', name), name).toBe(colour);
    const row = page.getByRole('table', { name: 'Usage totals' }).getByRole('row').filter({ hasText: name });
    expect(
      await row
        .locator('.legend-swatch')
        .evaluate(
          (element: PageElement) => (globalThis as unknown as PageGlobals).getComputedStyle(element).backgroundColor,
        ),
      `${name} in the table`,
    ).toBe(colour);
  }
  expect(await swatch('chart-requests', `a11y-busy-${stamp}`)).not.toBe(
    await swatch('chart-requests', `a11y-wordy-${stamp}`),
  );
});

/**
 * Markup problems a screen reader trips on: interactive elements inside options or rows (which are
 * interactive themselves), a grid holding a listbox, aria-activedescendant or ids that are not valid
 * IDREFs, and buttons without a name.
 */
function markupProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const { document } = globalThis as unknown as PageGlobals;
    const problems: string[] = [];
    for (const item of document.querySelectorAll('[role="option"], [role="row"]')) {
      const inner = item.querySelector('button, a[href], input, select, textarea, [tabindex], [role="button"]');
      if (inner) problems.push(`a ${inner.tagName.toLowerCase()} inside a ${item.getAttribute('role')}`);
    }
    for (const grid of document.querySelectorAll('[role="grid"]'))
      if (grid.querySelector('[role="listbox"]')) problems.push('a listbox inside a grid');
    for (const element of document.querySelectorAll('[aria-activedescendant]')) {
      const id = element.getAttribute('aria-activedescendant')!;
      if (/\s/.test(id) || document.getElementById(id)?.getAttribute('role') !== 'option')
        problems.push(`aria-activedescendant "${id}" names no option`);
    }
    for (const element of document.querySelectorAll('[id]'))
      if (/\s/.test(element.id)) problems.push(`id "${element.id}" holds a space`);
    for (const button of document.querySelectorAll('button, [role="button"]')) {
      const name = button.getAttribute('aria-label') ?? button.textContent ?? '';
      if (!name.trim() && !button.closest('[aria-hidden="true"]')) problems.push('a button without a name');
    }
    return problems;
  });
}

test('live traffic is a listbox of named options with valid active-descendant ids', async ({ page, app }) => {
  const { key } = await issueKey(`a11y-traffic-${Date.now()}`);
  const response = await fetch(`${app.gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: 'listbox check' }] }),
  });
  expect(response.status).toBe(200);
  await openSignedIn(page, 'gateway/traffic');
  const list = page.getByRole('listbox', { name: 'Requests' });
  const option = list.getByRole('option', {
    name: /^\d\d:\d\d:\d\d, a11y-traffic-\d+, \/v1\/chat\/completions, demo\/echo, .*, method POST/,
  });
  await expect(option.first()).toBeVisible();
  await expect(page.getByRole('grid')).toHaveCount(0);

  await list.focus();
  await page.keyboard.press('j');
  const active = await list.getAttribute('aria-activedescendant');
  expect(active).toMatch(/^\S+$/);
  await expect(page.locator(`[id="${active}"]`)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('traffic-drawer')).toBeVisible();
  expect(await markupProblems(page)).toEqual([]);
});

test('lists labelled with spaces still get valid ids (the changed documents of a revision)', async ({ page }) => {
  const namespace = `e2e/a11y-${Date.now()}`;
  await storeCall('/v1/apply', {
    scope: { namespace, branch: 'main' },
    message: 'Two documents',
    documents: [
      { key: 'a file with spaces.txt', content: 'one\n' },
      { key: 'second.txt', content: 'two\n' },
    ],
  });
  await openSignedIn(page, `store/history?ns=${encodeURIComponent(namespace)}&branch=main`);
  const changes = page.getByRole('listbox', { name: 'Changed documents' });
  await expect(changes.getByRole('option')).toHaveCount(2);
  await changes.focus();
  await page.keyboard.press('j');
  expect(await markupProblems(page)).toEqual([]);
});

test('g then a goes to the Cache screen, and the shortcuts list says so', async ({ page }) => {
  await openSignedIn(page, 'gateway/usage');
  await expect(page.getByRole('heading', { name: 'Usage', level: 1 })).toBeVisible();
  await page.keyboard.press('g');
  await page.keyboard.press('a');
  await expect(page).toHaveURL(/\/ui\/gateway\/cache$/);
  await expect(page.getByTestId('cache-stats')).toBeVisible();
  await page.keyboard.press('?');
  const shortcuts = page.getByTestId('shortcuts-dialog');
  await expect(shortcuts.locator('.shortcut-row').filter({ hasText: 'Cache' })).toContainText('ga');
});

test('a table that has keyboard focus shows it before any row is highlighted', async ({ page }) => {
  expect((await gatewayAdmin('/internal/api-keys', 'POST', { name: `focus-ring-${Date.now()}` })).status).toBe(201);
  await openSignedIn(page, 'gateway/keys');
  // The table takes focus when the screen opens, as a list does: nothing is highlighted yet.
  const table = page.getByTestId('keys-table');
  await expect(table).toBeFocused();
  await expect(table.locator('tr.is-selected')).toHaveCount(0);
  // e2e code is type-checked without the DOM library: the page's getComputedStyle, as far as used.
  type Styles = { getComputedStyle(element: unknown): { outlineStyle: string; outlineWidth: string } };
  const outline = await table.evaluate((element) => {
    const style = (globalThis as unknown as Styles).getComputedStyle(element);
    return `${style.outlineStyle} ${style.outlineWidth}`;
  });
  expect(outline).toBe('solid 2px');
});
