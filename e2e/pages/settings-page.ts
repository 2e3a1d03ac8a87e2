import { expect, type Locator, type Page } from '@playwright/test';

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

  /** The API server keys' table (the audit log names keys too). */
  apiKeyRow(name: string): Locator {
    return this.page.getByRole('table', { name: 'API server keys' }).getByRole('row', { name: new RegExp(name) });
  }

  async createApiKey(name: string): Promise<string> {
    await this.page.getByLabel('Name', { exact: true }).fill(name);
    await this.page.getByRole('button', { name: 'Create key' }).click();
    const created = this.page.getByTestId('created-api-key');
    await expect(created).toHaveText(/^vd-[0-9a-f]{12}-[\w-]{43}$/);
    const key = (await created.textContent())!;
    await this.page.getByRole('button', { name: 'Done' }).click();
    return key;
  }

  async revokeApiKey(name: string): Promise<void> {
    await this.page.getByRole('button', { name: `Revoke ${name}` }).click();
    await expect(this.apiKeyRow(name).getByText('revoked')).toBeVisible();
  }

  /** The Capture rules panel. */
  get captures(): Locator {
    return this.page.getByRole('region', { name: 'Capture rules' });
  }

  captureRuleRow(name: string): Locator {
    return this.page
      .getByRole('table', { name: 'Capture rules' })
      .getByRole('row')
      .filter({ has: this.page.getByRole('rowheader', { name, exact: true }) });
  }

  /** Makes a capture rule from the panel's form: fields left out keep the schema's defaults. */
  async makeCaptureRule(rule: { name: string; keys?: string[]; condition?: string }): Promise<void> {
    await this.page.getByLabel('Rule name').fill(rule.name);
    for (const key of rule.keys ?? []) await this.captures.getByRole('group', { name: 'API keys' }).getByRole('checkbox', { name: key }).check();
    if (rule.condition !== undefined) await this.page.getByLabel('Condition (JSON)').fill(rule.condition);
    await this.captures.getByRole('button', { name: 'Make rule' }).click();
  }

  /** Removes a capture rule, accepting the question asked first; resolves with that question. */
  async removeCaptureRule(name: string): Promise<string> {
    const asked = new Promise<string>((resolve) =>
      this.page.once('dialog', (dialog) => {
        resolve(dialog.message());
        void dialog.accept();
      }),
    );
    await this.page.getByRole('button', { name: `Remove ${name}` }).click();
    return asked;
  }

  /** The audit log's rows, newest first. */
  auditRows(): Locator {
    return this.page.getByRole('table', { name: 'Audit log' }).locator('tbody tr');
  }

  theme(value: 'system' | 'light' | 'dark'): Locator {
    return this.page.getByRole('radio', { name: value });
  }

  /**
   * Picks a theme once every panel above Appearance has loaded: a table that replaces its
   * "Loading…" line moves the radios down, and a click that lands as that happens misses them.
   * The radio shows the stored choice, so it is checked a few ticks after the click (the screen's
   * optimistic update first cancels a read in flight), later than `check()` looks: it is clicked,
   * then awaited.
   */
  async chooseTheme(value: 'system' | 'light' | 'dark'): Promise<void> {
    await expect(this.page.getByRole('status').filter({ hasText: /^Loading / })).toHaveCount(0);
    await this.theme(value).click();
    await expect(this.theme(value)).toBeChecked();
  }
}
