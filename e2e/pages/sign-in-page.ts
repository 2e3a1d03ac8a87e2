import type { Locator, Page } from '@playwright/test';

/** The sign-in screen a browser without a session sees, and who is signed in once it has one. */
export class SignInPage {
  readonly heading: Locator;
  readonly key: Locator;
  readonly submit: Locator;
  readonly refusal: Locator;
  readonly badge: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Sign in to Verdict' });
    this.key = page.getByLabel('Management key');
    this.submit = page.getByRole('button', { name: 'Sign in' });
    this.refusal = page.getByRole('alert');
    this.badge = page.getByTestId('session-badge');
  }

  async signIn(key: string): Promise<void> {
    await this.key.fill(key);
    await this.submit.click();
  }

  async signOut(): Promise<void> {
    await this.badge.getByRole('button', { name: 'Sign out' }).click();
  }
}
