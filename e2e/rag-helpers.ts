import type { Page } from '@playwright/test';
import { gatewayAdmin, openSignedIn } from './fixtures.js';

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

/** A collection as the admin API answers it (the fields the tests read). */
export interface StoredCollection {
  readonly description: string;
  readonly access: { readonly keys: string[]; readonly users: string[]; readonly teams: string[] };
  readonly source: { readonly namespace: string; readonly branch: string } | null;
  readonly documents: number;
}

/** The collection `name` as the admin API has it now. */
export const storedCollection = async (name: string): Promise<StoredCollection> =>
  (await (await gatewayAdmin(`/internal/rag/collections/${name}`)).json()) as StoredCollection;
