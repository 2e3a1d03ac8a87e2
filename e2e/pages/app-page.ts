import type { Locator, Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const ARTIFACTS = join(import.meta.dirname, '..', 'artifacts');

/**
 * Screens are saved to e2e/artifacts, for people to look at, when VERDICT_SCREENSHOTS is set
 * (`VERDICT_SCREENSHOTS=1 npm run test:e2e`). No check reads them, and a full-page picture costs
 * the browser about a tenth of a second, so `npm test` takes none.
 */
const SCREENSHOTS = Boolean(process.env['VERDICT_SCREENSHOTS']);

export const SCREEN_LABELS = ['Question sets', 'Runs', 'Evaluations', 'Boxes', 'Review', 'Monitor', 'Endpoints', 'ZDR', 'Settings'] as const;
export type ScreenLabel = (typeof SCREEN_LABELS)[number];

/** The shell: navigation and the current screen's heading. */
export class AppPage {
  readonly nav: Locator;
  readonly heading: Locator;

  constructor(readonly page: Page) {
    this.nav = page.getByRole('navigation', { name: 'Screens' });
    this.heading = page.getByRole('heading', { level: 1 });
  }

  async open(uiUrl: string): Promise<void> {
    await this.page.goto(uiUrl);
    await this.nav.waitFor();
  }

  navLink(label: ScreenLabel): Locator {
    return this.nav.getByRole('link', { name: new RegExp(`^${label}`) });
  }

  async goTo(label: ScreenLabel): Promise<void> {
    await this.navLink(label).click();
    await this.heading.filter({ hasText: label }).waitFor();
  }

  async screenshot(name: string, { fullPage = true }: { fullPage?: boolean } = {}): Promise<void> {
    if (!SCREENSHOTS) return;
    mkdirSync(ARTIFACTS, { recursive: true });
    await this.page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage });
  }

  /** The screen (or one part of it) in the light theme and the dark, as `<name>-light.png` and `<name>-dark.png`. */
  async screenshotInBothThemes(name: string, part?: Locator): Promise<void> {
    if (!SCREENSHOTS) return;
    // The scheme the page had is given back after: a test's dark pass stays dark.
    const before = await this.page.evaluate(() => (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
    for (const scheme of ['light', 'dark'] as const) {
      await this.page.emulateMedia({ colorScheme: scheme });
      await this.page.locator(`html[data-theme="${scheme}"]`).waitFor({ state: 'attached' });
      if (part) await this.screenshotOf(part, `${name}-${scheme}`);
      else await this.screenshot(`${name}-${scheme}`, { fullPage: false });
    }
    await this.page.emulateMedia({ colorScheme: before });
  }

  /** One part of the screen, saved as `screenshot` saves the whole. */
  async screenshotOf(part: Locator, name: string): Promise<void> {
    if (!SCREENSHOTS) return;
    mkdirSync(ARTIFACTS, { recursive: true });
    await part.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
  }
}
