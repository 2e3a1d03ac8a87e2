import { test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';
import { EndpointsPage } from './pages/endpoints-page';
import { SettingsPage } from './pages/settings-page';

// Scripted failures and 429 cool-downs would reorder the route this journey checks.
test.use({ sandboxFailures: false });

/** The median of a "p50 / p90" pair of seconds; unmeasured sorts last. */
const seconds = (text: string) => (text === '—' ? Number.POSITIVE_INFINITY : Number(text.split(' / ')[0]));
const TTFT = 'TTFT s p50 / p90';

test('a product person measures providers, compares latency, sorts, and previews a route', async ({ page, server }) => {
  const app = new AppPage(page);
  const endpoints = new EndpointsPage(page);
  await app.open(server.uiUrl);
  await app.goTo('Endpoints');
  await expect(endpoints.row('sandbox-swift')).toContainText('simulated');

  // Before any traffic nothing is measured, and the table says so rather than showing 0 or 100.
  await expect(endpoints.row('sandbox-swift')).toContainText('—');

  // Before the click: what measuring sends and costs at most, described to the button.
  const usdIn = (text: string | null) => Number(/\$([\d.]+)/.exec(text ?? '')![1]);
  const said = page.getByTestId('measure-cost');
  await expect(said).toHaveText(/^3 calls to each of \d+ endpoints: at most \$\d/);
  await expect(page.getByRole('button', { name: 'Measure now' })).toHaveAccessibleDescription(/at most \$/);
  const atMost = usdIn(await said.textContent());
  await page.getByRole('button', { name: 'Measure now' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'measuring requests' })).toBeVisible({ timeout: 20_000 });
  // What measuring cost, priced as every request is (the simulated endpoints have list prices), within what was said.
  const spent = page.getByRole('status').filter({ hasText: 'measuring requests' });
  await expect(spent).toContainText(/measuring requests, which cost \$\d/);
  expect(usdIn(await spent.textContent())).toBeLessThanOrEqual(atMost);
  await expect.poll(async () => (await endpoints.columnValues(TTFT)).filter((v) => v !== '—').length).toBeGreaterThanOrEqual(3);
  await expect(page.getByRole('img', { name: 'Latency percentiles by provider' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Uptime over time by provider' })).toBeVisible();

  await endpoints.sortBy('TTFT s p50');
  const ascending = (await endpoints.columnValues(TTFT)).map(seconds);
  expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
  await endpoints.sortBy('TTFT s p50');
  const descending = (await endpoints.columnValues(TTFT)).map(seconds).filter(Number.isFinite);
  expect(descending).toEqual([...descending].sort((a, b) => b - a));
  await app.screenshot('endpoints-measured');

  await page.getByLabel('Sort').selectOption('price');
  await expect(endpoints.route.locator('li').first()).toContainText('Bargain (simulated)');
  await expect(endpoints.route.locator('li').first()).toContainText('sorted by price');
  await page.getByRole('checkbox', { name: 'zdr' }).check();
  await expect(endpoints.excluded).toContainText('Bargain (simulated) — retains prompts (not ZDR)');
  await expect(endpoints.excluded).toContainText('Flaky (simulated) — zero data retention not known');
  await expect(endpoints.route.locator('li').first()).toContainText('Steady (simulated)');
  await app.screenshot('endpoints-route-preview');
});

test('the ZDR screen shows coverage per model and what zdr: true would cost', async ({ page, server }) => {
  const app = new AppPage(page);
  await app.open(server.uiUrl);
  await app.goTo('ZDR');
  const table = page.getByRole('table', { name: 'ZDR coverage by model' });
  await expect(table.locator('tr[data-model="sandbox/baseline-text"]')).toContainText('2 of 4');
  // The decision model's hosts: the gateway and the System One host keep no prompts, the OpenAI-shaped one does.
  await expect(table.locator('tr[data-model="sandbox/decider"]')).toContainText('2 of 3');
  await expect(table.locator('tr[data-model="sandbox/baseline-vision"]')).toContainText('2 of 2');
  // The cheapest text endpoint (Bargain, $0.15/M) keeps prompts; with ZDR the cheapest is Steady ($0.50/M).
  await expect(table.locator('tr[data-model="sandbox/baseline-text"]')).toContainText('$0.15 → $0.50 (+233%)');
  await expect(page.getByText('Every model keeps at least one endpoint with zdr: true.')).toBeVisible();
  await app.screenshot('zdr-impact');
});

test('the Endpoints screen in the dark theme', async ({ page, server }) => {
  const app = new AppPage(page);
  await app.open(server.uiUrl);
  await app.goTo('Settings');
  await new SettingsPage(page).chooseTheme('dark');
  await app.goTo('Endpoints');
  await page.getByRole('button', { name: 'Measure now' }).click();
  await expect(page.getByRole('img', { name: 'Latency percentiles by provider' })).toBeVisible({ timeout: 20_000 });
  // Chart labels follow the theme: light text on the dark background.
  const labelColour = await page.locator('[aria-label="Latency percentiles by provider"] svg text').first().getAttribute('fill');
  expect(labelColour?.toLowerCase()).not.toBe('#333');
  await app.screenshot('endpoints-dark');
});
