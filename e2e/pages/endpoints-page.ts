import type { Locator, Page } from '@playwright/test';

/** Endpoints: the model's endpoint table, charts and routing preview. */
export class EndpointsPage {
  readonly table: Locator;
  readonly route: Locator;
  readonly excluded: Locator;

  constructor(readonly page: Page) {
    this.table = page.getByRole('table', { name: 'Endpoints' });
    this.route = page.getByRole('list', { name: 'Route' });
    this.excluded = page.getByRole('list', { name: 'Excluded endpoints' });
  }

  row(tag: string): Locator {
    return this.table.locator(`tr[data-tag="${tag}"]`);
  }

  async columnValues(header: string): Promise<string[]> {
    const headers = await this.table.locator('thead th').allInnerTexts();
    const index = headers.findIndex((h) => h.replace(/[▲▼]/g, '').trim() === header);
    return this.table.locator(`tbody tr > :nth-child(${index + 1})`).allInnerTexts();
  }

  async sortBy(header: string): Promise<void> {
    await this.table.getByRole('button', { name: new RegExp(`^${header}`) }).click();
  }
}
