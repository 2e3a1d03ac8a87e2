import type { Locator, Page } from '@playwright/test';

/** Settings: provider keys, API server keys, appearance. */
export class SettingsPage {
  constructor(readonly page: Page) {}

  providerRow(name: string): Locator {
    return this.page.getByRole('row').filter({ has: this.page.getByRole('rowheader', { name: new RegExp(`^${name}`) }) });
  }

  keyInput(name: string): Locator {
    return this.page.getByLabel(`${name} API key`);
  }

  async storeKey(name: string, key: string): Promise<void> {
    await this.keyInput(name).fill(key);
    await this.providerRow(name).getByRole('button', { name: 'Save' }).click();
  }

  async clearKey(name: string): Promise<void> {
    await this.providerRow(name).getByRole('button', { name: 'Clear' }).click();
  }

  keyStatus(name: string): Locator {
    return this.providerRow(name).locator('.badge');
  }

  theme(value: 'system' | 'light' | 'dark'): Locator {
    return this.page.getByRole('radio', { name: value });
  }
}
