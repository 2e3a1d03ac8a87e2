import type { Locator, Page } from '@playwright/test';

/** Question sets: the set list, the editor, and its actions. */
export class QuestionSetsPage {
  readonly name: Locator;
  readonly model: Locator;
  readonly state: Locator;
  readonly validity: Locator;

  constructor(readonly page: Page) {
    this.name = page.getByLabel('Name', { exact: true }).first();
    this.model = page.locator('#set-model');
    this.state = page.getByLabel('State content');
    this.validity = page.locator('.action-bar [role="status"]');
  }

  /** Ticks the other models to run the set on, in the action bar's list, and closes the list. */
  async alsoRunOn(models: readonly string[]): Promise<void> {
    const list = this.page.locator('details.compare-models');
    await list.locator('summary').click();
    for (const m of models) await list.getByRole('checkbox', { name: m, exact: true }).check();
    await list.locator('summary').click();
  }

  question(name: string): Locator {
    return this.page.getByRole('group', { name: `Question ${name}` });
  }

  async addQuestion(): Promise<void> {
    await this.page.getByRole('button', { name: 'Add question' }).click();
  }

  async fillQuestion(current: string, options: { name?: string; type?: string; instructions: string }): Promise<Locator> {
    let q = this.question(current);
    if (options.type) await q.getByLabel('Type').selectOption(options.type);
    if (options.name) {
      await q.getByLabel('Name', { exact: true }).fill(options.name);
      q = this.question(options.name);
    }
    await q.getByLabel('Instructions (text, or JSON)').fill(options.instructions);
    return q;
  }
}
