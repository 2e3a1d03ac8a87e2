import type { Locator, Page } from '@playwright/test';
import { test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';

test.use({ sandboxFailures: false });

/** The locator's box is inside the window, and the table around it does not scroll sideways. */
async function expectShownWhole(page: Page, locator: Locator, where: string): Promise<void> {
  await expect(locator, where).toBeInViewport({ ratio: 1 });
  const clipped = await locator.evaluate((el) => {
    const box = el.closest('.table-scroll');
    return box ? box.scrollWidth - box.clientWidth : 0;
  });
  expect(clipped, `${where}: its table scrolls sideways by ${clipped}px`).toBeLessThanOrEqual(0);
}

test('a product manager compares providers and ZDR at 1280 × 800: every screen shows its key column without scrolling', async ({ page, server }) => {
  test.setTimeout(120_000);
  const app = new AppPage(page);
  await app.open(server.uiUrl);
  const call = async <T>(op: string, input: unknown): Promise<T> =>
    ((await (await page.request.post(`${server.url}/api/inspector/${op}`, { headers: { 'x-verdict-client': 'renderer' }, data: input })).json()) as { data: T })
      .data;
  // Some traffic of their own: the sample set run on two models, and the endpoints measured.
  const { set } = await call<{ set: { id: string } }>('samples.add', {});
  const request = (await call<{ request: Record<string, unknown> }>('sets.get', { id: set.id })).request;
  for (const model of ['sandbox/baseline-text', 'sandbox/sharp-large']) await call('runs.start', { request: { ...request, model }, label: 'traffic' });
  await app.goTo('Endpoints');
  await page.getByRole('button', { name: 'Measure now' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'measuring requests' })).toBeVisible({ timeout: 20_000 });

  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await app.goTo('Endpoints');
    const endpoints = page.getByRole('table', { name: 'Endpoints' });
    await expect(endpoints.locator('tbody tr')).toHaveCount(4);
    for (const header of ['ZDR', 'Tok/s p50 / p90'])
      await expectShownWhole(page, endpoints.getByRole('columnheader', { name: new RegExp(`^${header.replace('/', '\\/')}`) }), `Endpoints' ${header}`);
    // Uptime with the attempts behind it; a longer window with no older traffic says so instead of repeating the figure.
    await expect(endpoints.locator('tbody tr').first()).toContainText(/%\*? \(\d+\)/);
    await expect(endpoints.locator('tbody tr').first()).toContainText('as 5m');
    await expect(page.getByRole('img', { name: 'Price against latency by provider' }).locator('svg')).toBeVisible();
    await app.screenshot(`pm-endpoints-${theme}`);

    await app.goTo('ZDR');
    const zdr = page.getByRole('table', { name: 'ZDR coverage by model' });
    for (const header of ['Best TTFT p50', 'Best tok/s p50', 'Per 1,000 of your requests'])
      await expectShownWhole(page, zdr.getByRole('columnheader', { name: header }), `ZDR's ${header}`);
    // What ZDR costs on their own traffic: the baseline's cheapest endpoint keeps no prompts only at a higher price.
    await expect(zdr.locator('[data-traffic="sandbox/baseline-text"]')).toContainText(/^\$[\d.]+ → \$[\d.]+ \(\+\d+%\)/);
    await expect(zdr.locator('[data-traffic="sandbox/baseline-text"]')).toContainText('1 request:');
    // Beside the cost as routed, the cheapest list price, and what their requests did cost.
    await expect(zdr.locator('[data-traffic="sandbox/baseline-text"]')).toContainText(/list price: \$[\d.]+ → \$[\d.]+/);
    await expect(zdr.locator('[data-traffic="sandbox/baseline-text"]')).toContainText(/your requests cost \$[\d.]+ per 1,000/);
    await expect(zdr.locator('[data-traffic="sandbox/cheap-mini"]')).toContainText('no traffic yet');
    await page.getByLabel('Input tokens of a request').fill('1000');
    await page.getByLabel('Output tokens of a request').fill('10');
    await expect(zdr.locator('[data-traffic="sandbox/cheap-mini"]')).toContainText('typed: 1,000 in, 10 out each');
    await page.getByLabel('Input tokens of a request').fill('');
    await app.screenshot(`pm-zdr-${theme}`);

    await app.goTo('Runs');
    await expectShownWhole(page, page.getByRole('table', { name: 'Run history' }).getByRole('columnheader', { name: 'Actions' }), "Runs' actions");
    await app.screenshot(`pm-runs-${theme}`);

    await app.goTo('Settings');
    await expectShownWhole(page, page.locator('tr[data-provider="openai"]').getByRole('button', { name: 'Clear' }), "Settings' Clear");
    await app.screenshot(`pm-settings-${theme}`);

    await app.goTo('Question sets');
    await expectShownWhole(page, page.getByRole('button', { name: 'Run', exact: true }), "Question sets' Run");
    await app.screenshot(`pm-question-sets-${theme}`);
  }
});

test('a first start shows no problem on a blank form, a one-line notice, and the sample to try', async ({ page, server }) => {
  const app = new AppPage(page);
  await app.open(server.uiUrl);
  await app.goTo('Question sets');
  // Nothing typed yet: no red problem and no "2 problems".
  await expect(page.locator('.field-problems')).toHaveCount(0);
  await expect(page.locator('.action-bar [role="status"]')).toHaveText('new set: write content and a question');
  // Problems come once a field is edited.
  await page.getByLabel('State content').fill('x');
  await page.getByLabel('State content').fill('');
  await expect(page.locator('.field-problems').first()).toBeVisible();
  // The notice is one line: its explanation is folded.
  const notice = page.getByRole('note').filter({ hasText: 'Simulated providers are on' });
  expect((await notice.boundingBox())!.height).toBeLessThan(48);
  // The provider preferences are folded until wanted.
  await expect(page.getByLabel('Zero data retention')).toBeHidden();
  await expect(page.getByRole('region', { name: 'Samples to try' })).toBeVisible();
  // Evaluations comes right after Runs.
  await expect(app.navLink('Evaluations')).toContainText('Alt 3');
  await app.screenshot('first-start-light');
});
