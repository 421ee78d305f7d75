import type { Page } from '@playwright/test';
import { openSignedIn } from './fixtures.js';

/** Opens the Collections screen and the collection `name` in it. */
export async function openCollection(page: Page, name: string): Promise<void> {
  await openSignedIn(page, 'gateway/collections');
  await page
    .getByTestId('collections-table')
    .getByRole('row')
    .filter({ hasText: name })
    .getByRole('button', { name: 'Open' })
    .click();
}
