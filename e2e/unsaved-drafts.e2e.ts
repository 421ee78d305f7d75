import type { Locator, Page } from '@playwright/test';
import { expect, openSignedIn, test } from './fixtures.js';

/** A screen with a save bar, and one edit that makes its draft unsaved. */
interface DraftScreen {
  readonly title: string;
  readonly path: string;
  readonly saveTestId: string;
  /** The field the edit goes into, and the value typed there. */
  readonly field: (page: Page) => Locator;
  readonly value: string;
}

const SCREENS: readonly DraftScreen[] = [
  {
    title: 'Models',
    path: 'gateway/models',
    saveTestId: 'save-models',
    field: (page) => page.getByLabel('Max tokens for demo/echo'),
    value: '4321',
  },
  {
    title: 'PII & policy',
    path: 'gateway/guardrails',
    saveTestId: 'save-guardrails',
    field: (page) => page.getByLabel('Max input tokens', { exact: true }),
    value: '5678',
  },
  {
    title: 'Cache',
    path: 'gateway/cache',
    saveTestId: 'save-cache',
    field: (page) => page.getByLabel('Time to live (seconds)'),
    value: '4242',
  },
];

const leaveDialog = (page: Page, screen: DraftScreen): Locator =>
  page.getByRole('dialog', { name: `Discard unsaved changes to ${screen.title}?` });

/** Opens the overview, then the screen from the sidebar (so there is an entry to go back to), and edits it. */
async function editScreen(page: Page, screen: DraftScreen): Promise<void> {
  await openSignedIn(page, '');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: screen.title }).click();
  await expect(screen.field(page)).toBeVisible();
  await screen.field(page).fill(screen.value);
  await expect(page.getByTestId(screen.saveTestId)).toBeVisible();
}

/** The draft is still there: the same screen, the edited value, the save bar. */
async function expectDraftKept(page: Page, screen: DraftScreen): Promise<void> {
  await expect(page).toHaveURL(new RegExp(`/ui/${screen.path}$`));
  await expect(screen.field(page)).toHaveValue(screen.value);
  await expect(page.getByTestId(screen.saveTestId)).toBeVisible();
}

for (const screen of SCREENS) {
  test(`${screen.title}: leaving with unsaved changes asks first (sidebar, g shortcut, back); Keep editing keeps the draft`, async ({
    page,
  }) => {
    await editScreen(page, screen);
    const dialog = leaveDialog(page, screen);
    const nav = page.getByRole('navigation', { name: 'Main' });

    // A sidebar link: Keep editing (focused first, since Discard cannot be undone) stays.
    await nav.getByRole('link', { name: 'Keys' }).click();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Keep editing' })).toBeFocused();
    await dialog.getByRole('button', { name: 'Keep editing' }).click();
    await expect(dialog).toBeHidden();
    await expectDraftKept(page, screen);

    // The "g k" shortcut: Esc is Keep editing too.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('g');
    await page.keyboard.press('k');
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expectDraftKept(page, screen);

    // The browser's Back: the screen (and its address) stays until the answer; Discard then goes back.
    const back = () => page.evaluate(() => (globalThis as unknown as { history: { back(): void } }).history.back());
    await back();
    await expect(dialog).toBeVisible();
    await expectDraftKept(page, screen);
    await dialog.getByRole('button', { name: 'Keep editing' }).click();
    await expectDraftKept(page, screen);
    await back();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Discard' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/ui\/$/);
    await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();

    // Forward returns to the screen without its discarded draft, and a clean screen leaves without asking.
    await page.evaluate(() => (globalThis as unknown as { history: { forward(): void } }).history.forward());
    await expect(page).toHaveURL(new RegExp(`/ui/${screen.path}$`));
    await expect(screen.field(page)).not.toHaveValue(screen.value);
    await expect(page.getByTestId(screen.saveTestId)).toBeHidden();
    await nav.getByRole('link', { name: 'Keys' }).click();
    await expect(page).toHaveURL(/\/ui\/gateway\/keys$/);
    await expect(dialog).toBeHidden();
  });

  test(`${screen.title}: Discard in the leave dialog goes where the link pointed; reload asks the browser first`, async ({
    page,
  }) => {
    await editScreen(page, screen);
    const dialog = leaveDialog(page, screen);

    // Reload and close: the browser's own prompt (beforeunload); dismissed, the draft stays.
    const prompted = page.waitForEvent('dialog');
    void page.evaluate(() => (globalThis as unknown as { location: { reload(): void } }).location.reload());
    const prompt = await prompted;
    expect(prompt.type()).toBe('beforeunload');
    await prompt.dismiss();
    await expectDraftKept(page, screen);

    // Signing out would drop the draft too.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'Sign out' }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Keep editing' }).click();
    await expectDraftKept(page, screen);

    await nav.getByRole('link', { name: 'Usage' }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Discard' }).click();
    await expect(page).toHaveURL(/\/ui\/gateway\/usage$/);
    await expect(page.getByTestId(screen.saveTestId)).toBeHidden();
  });
}

test('Models: every button has a name of its own, and the add buttons say what they add', async ({ page }) => {
  await openSignedIn(page, 'gateway/models');
  await expect(page.getByTestId('aliases')).toBeVisible();
  const main = page.getByRole('main');
  await expect(main.getByRole('button', { name: 'Allow model', exact: true })).toBeVisible();
  await expect(main.getByRole('button', { name: 'Add alias', exact: true })).toBeVisible();
  await expect(main.getByRole('button', { name: 'Add deployment', exact: true })).toBeVisible();
  await expect(main.getByRole('button', { name: 'Add', exact: true })).toHaveCount(0);
  const names = await main.getByRole('button').evaluateAll((buttons) =>
    buttons.map((button) => {
      const element = button as unknown as { getAttribute(name: string): string | null; textContent: string | null };
      return (element.getAttribute('aria-label') ?? element.textContent ?? '').trim();
    }),
  );
  expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
});

test('Models: an alias named like an allowed model is refused as typed, and one made so by allowing its name blocks Save', async ({
  page,
}) => {
  await openSignedIn(page, 'gateway/models');
  const aliases = page.getByTestId('aliases');
  const aliasField = aliases.getByLabel('Alias', { exact: true });
  const addAlias = aliases.getByRole('button', { name: 'Add alias' });

  // As typed: the field says what is wrong, and the alias cannot join the draft.
  await aliasField.fill('demo/echo');
  await expect(aliasField).toHaveAttribute('aria-invalid', 'true');
  await expect(aliases).toContainText('Alias "demo/echo" is already an allowed model name');
  await expect(addAlias).toBeDisabled();
  await aliasField.press('Enter');
  await expect(aliases.getByRole('button', { name: 'Remove alias demo/echo' })).toHaveCount(0);
  await expect(page.getByTestId('save-models')).toBeHidden();

  // A good name clears the problem.
  const alias = `quick-${Date.now()}`;
  await aliasField.fill(alias);
  await expect(aliasField).not.toHaveAttribute('aria-invalid', 'true');
  await aliases.getByLabel('Alias target').selectOption('demo/echo');
  await addAlias.click();
  await expect(aliases.getByRole('button', { name: `Remove alias ${alias}` })).toBeVisible();

  const save = page.getByTestId('save-models');
  await expect(save).toBeEnabled();

  // With the draft unsaved, a bad alias being typed disables Save too, with the field's words next to it.
  await aliasField.fill('demo/echo');
  await expect(save).toBeDisabled();
  await expect(page.getByTestId('save-blocked')).toContainText(
    'Save is disabled: Alias "demo/echo" is already an allowed model name',
  );
  await page.getByTestId('show-problem').click();
  await expect(aliasField).toBeFocused();
  // An alias's own name again is refused as typed too (it would replace the alias's target).
  await aliasField.fill(alias);
  await expect(aliases).toContainText(`Alias "${alias}" already exists`);
  await expect(addAlias).toBeDisabled();
  await expect(save).toBeDisabled();
  await aliasField.fill('');
  await expect(save).toBeEnabled();

  // Allowing a model of the alias's name makes the draft one the gateway would refuse: Save says why.
  await page.getByLabel('Model to allow').fill(alias);
  await page.getByRole('button', { name: 'Allow model' }).click();
  await expect(save).toBeDisabled();
  await expect(page.getByTestId('save-blocked')).toContainText(
    `Save is disabled: Alias "${alias}" is already an allowed model name`,
  );
  await expect(aliases).toContainText(`Alias "${alias}" is already an allowed model name`);
  await page.getByTestId('show-problem').click();
  await expect(aliases.getByRole('button', { name: `Remove alias ${alias}` })).toBeFocused();

  // Removing the alias resolves it.
  await aliases.getByRole('button', { name: `Remove alias ${alias}` }).click();
  await expect(save).toBeEnabled();
  await expect(page.getByTestId('save-blocked')).toHaveText('');
  await page.getByRole('button', { name: 'Discard', exact: true }).click();
  await expect(save).toBeHidden();
});

test('Models: a model or alias typed but not added keeps Save disabled until it is added or cleared', async ({
  page,
}) => {
  await openSignedIn(page, 'gateway/models');
  const save = page.getByTestId('save-models');
  // The columns of row buttons are named, though blank on screen.
  for (const table of ['allowed-models', 'aliases'])
    await expect(page.getByTestId(table).getByRole('columnheader').last()).toHaveText('Actions');
  // Some other change, so the draft is unsaved and the save bar shows.
  await page.getByLabel('Max tokens for demo/echo').fill('777');
  await expect(save).toBeEnabled();

  const modelField = page.getByLabel('Model to allow');
  const model = `typed/model-${Date.now()}`;
  await modelField.fill(model);
  await expect(save).toBeDisabled();
  await expect(page.getByTestId('save-blocked')).toContainText(`Model "${model}" is typed but not allowed yet`);
  await page.getByTestId('show-problem').click();
  await expect(modelField).toBeFocused();
  // An allowed model's name is refused where it is typed.
  await modelField.fill('demo/echo');
  await expect(modelField).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('allowed-models')).toContainText('Model "demo/echo" is already allowed');
  await expect(page.getByRole('button', { name: 'Allow model' })).toBeDisabled();
  await modelField.fill('');
  await expect(save).toBeEnabled();

  const aliases = page.getByTestId('aliases');
  const aliasField = aliases.getByLabel('Alias', { exact: true });
  const alias = `typed-${Date.now()}`;
  await aliasField.fill(alias);
  await expect(save).toBeDisabled();
  await expect(page.getByTestId('save-blocked')).toContainText(`Alias "${alias}" is typed but not added yet`);
  await aliases.getByRole('button', { name: 'Add alias' }).click();
  await expect(save).toBeEnabled();
  await page.getByRole('button', { name: 'Discard', exact: true }).click();
  await expect(save).toBeHidden();
});
