import type { Page } from '@playwright/test';
import { inspectorCalls } from './fixtures/network';
import { test, expect } from './fixtures/server';
import { AppPage, SCREEN_LABELS } from './pages/app-page';

// One server for these journeys: the theme is the browser's (emulated), the sidebar's state the page's own.
test.use({ sandboxFailures: false, shareServer: true });

const SIZES = [
  { width: 1024, height: 700 },
  { width: 1440, height: 900 },
] as const;

/** The page itself never scrolls sideways; wide tables scroll inside their own box. */
async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${where} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
}

for (const theme of ['light', 'dark'] as const) {
  test(`every screen works at 1024×700 and 1440×900 (${theme})`, async ({ page, server }) => {
    test.setTimeout(90_000);
    const app = new AppPage(page);
    const calls = inspectorCalls(page);
    await page.emulateMedia({ colorScheme: theme });
    await page.setViewportSize(SIZES[0]);
    await app.open(server.uiUrl);
    // Some figures, so charts and measured columns are drawn.
    await app.goTo('Endpoints');
    await page.getByRole('button', { name: 'Measure now' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'measuring requests' })).toBeVisible({ timeout: 20_000 });
    for (const size of SIZES) {
      await page.setViewportSize(size);
      // Narrow windows start with the sidebar collapsed; its links keep their names.
      await expect(page.getByRole('button', { name: size.width < 1200 ? 'Expand the sidebar' : 'Collapse the sidebar' })).toBeVisible();
      // Collapsed, each link shows a word under its digit, not the digit alone.
      if (size.width < 1200) {
        await expect(app.nav.locator('.nav-short')).toHaveText(['Sets', 'Runs', 'Evals', 'Boxes', 'Review', 'Monitor', 'Endpts', 'ZDR', 'Settings']);
        await expect(app.nav.locator('.nav-short').last()).toBeVisible();
        await app.screenshotInBothThemes('sidebar-collapsed-1024', app.nav);
      }
      for (const label of SCREEN_LABELS) {
        await app.goTo(label);
        // The screen as its data left it: nothing still being fetched.
        await calls.quiet();
        await expectNoSidewaysScroll(page, `${label} at ${size.width}×${size.height}`);
        await app.screenshot(`responsive-${label.toLowerCase().replace(/\s+/g, '-')}-${size.width}x${size.height}-${theme}`);
      }
    }
  });
}

test('at 1024×700 every column of the wide tables can be reached', async ({ page, server }) => {
  const app = new AppPage(page);
  await page.setViewportSize(SIZES[0]);
  await app.open(server.uiUrl);
  await app.goTo('Endpoints');
  // Measured, so every figure and count is drawn: the endpoint table and how requests are built fit
  // whole, at 1024 and at 1280 (a table scrolls, and is a scrolling region, only when it overflows).
  await page.getByRole('button', { name: 'Measure now' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'measuring requests' })).toBeVisible({ timeout: 20_000 });
  for (const width of [1024, 1280]) {
    await page.setViewportSize({ width, height: 700 });
    await expect(page.getByRole('columnheader', { name: 'Refused at run time' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'How requests are built, scrolls sideways' })).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Endpoints, scrolls sideways' })).toHaveCount(0);
  }
  await page.setViewportSize(SIZES[0]);
  for (const header of ['TTFT s p50 / p90', 'Tok/s p50 / p90', 'ZDR']) {
    const cell = page.getByRole('table', { name: 'Endpoints' }).getByRole('columnheader', { name: new RegExp(`^${header.replace('/', '\\/')}`) });
    await cell.scrollIntoViewIfNeeded();
    await expect(cell).toBeInViewport();
  }
  await expectNoSidewaysScroll(page, 'Endpoints');
  await app.goTo('ZDR');
  const providers = page.getByRole('table', { name: 'ZDR coverage by model' }).getByRole('columnheader', { name: 'Best tok/s p50' });
  await providers.scrollIntoViewIfNeeded();
  await expect(providers).toBeInViewport();
  await expectNoSidewaysScroll(page, 'ZDR');
  // The sidebar can be opened again, and stays as chosen.
  await page.getByRole('button', { name: 'Expand the sidebar' }).click();
  await expect(app.navLink('Endpoints')).toContainText('Alt 7');
  await page.reload();
  await expect(page.getByRole('button', { name: 'Collapse the sidebar' })).toBeVisible();
});
