import { test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';
import { EvaluationsPage } from './pages/evaluations-page';

test.use({ sandboxFailures: false });

/**
 * An analyst choosing a model for support-ticket triage on the simulated fleet, from the sample
 * offered on first start. Today's screens showed "urgent" at accuracy 0.700 and nothing else: no
 * recall, no baseline, no threshold.
 */
test('an analyst sees the never-yes classifier at recall 0 beside its always-false baseline, and moves the threshold', async ({ page, server }) => {
  test.setTimeout(120_000);
  const app = new AppPage(page);
  const evals = new EvaluationsPage(page);
  await app.open(server.uiUrl);
  // First start offers the sample; both are marked as samples.
  await page.getByRole('button', { name: 'Add the sample set and dataset' }).click();
  await expect(page.getByRole('button', { name: /^Support triage \(sample\)/ })).toContainText('sample');
  await app.goTo('Evaluations');
  await evals.open('New run');
  await evals.model('sandbox/skewed-small').check();
  await evals.model('sandbox/sharp-large').check();
  await evals.estimateButton.click();
  // Two figures, each named: what the run is expected to cost, and the most it can cost.
  await expect(page.getByTestId('expected-cost')).toHaveText(/^\$0\.\d+$/);
  await expect(page.getByTestId('worst-case')).toHaveText(/^\$\d+\.\d+$/);
  await expect(page.getByTestId('likely-cost')).toHaveText(/^\$0\.\d+ – \$0\.\d+$/);
  await page.getByRole('status', { name: 'Estimate' }).scrollIntoViewIfNeeded();
  await app.screenshot('analyst-estimate-light', { fullPage: false });
  await evals.startButton.click();
  // While it runs, the expected cost is never below what is already spent.
  const money = (text: string, label: RegExp) => Number(label.exec(text)?.[1]);
  for (let seen = 0; seen < 40; seen += 1) {
    const text =
      (await page
        .getByTestId('estimate-against-actual')
        .textContent()
        .catch(() => '')) ?? '';
    if (text.includes('Actual:')) break;
    if (text.includes('Expected now:')) expect(money(text, /Expected now: \$([\d.]+)/)).toBeGreaterThanOrEqual(money(text, /\$([\d.]+) spent so far/));
    await page.waitForTimeout(250);
  }
  await expect(evals.runPanel('done')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('estimate-against-actual')).toContainText(
    /Actual: \$0\.\d+, [+−][\d.]+% against the expected cost, (inside|outside) the likely range/,
  );

  // The model that never says yes: recall 0, no precision, and its accuracy is the always-false baseline's.
  await expect(evals.metric('sandbox/skewed-small', 'urgent', 'recall')).toHaveText('0.000');
  await expect(evals.metric('sandbox/skewed-small', 'urgent', 'precision')).toHaveText('—');
  await expect(evals.baseline('urgent')).toContainText('always false 0.700');
  await expect(evals.metric('sandbox/skewed-small', 'urgent', 'accuracy')).toHaveText('0.700');
  await expect(evals.metric('sandbox/sharp-large', 'urgent', 'recall')).not.toHaveText('0.000');
  // Every metric with its n and a 95% interval, and how the intervals were made.
  await expect(evals.metric('sandbox/skewed-small', 'urgent', 'n')).toHaveText('40');
  await expect(page.getByTestId('interval-method')).toContainText('Wilson score for shares of items; percentile bootstrap');
  await expect(evals.metric('sandbox/sharp-large', 'urgent', 'accuracy').locator('xpath=following-sibling::*[contains(@class, "metric-interval")]')).toHaveText(
    /^\[0\.\d\d, [01]\.\d\d\]$/,
  );

  // At a lower threshold the skewed model does say yes to some tickets.
  const recallAt = page.locator('[data-threshold-metric="sandbox/skewed-small recall"]');
  await expect(recallAt).toContainText('0.000');
  await page.getByLabel('Threshold for urgent').fill('0.05');
  await expect(page.getByText('Say yes at P(true) ≥ 0.05')).toBeVisible();
  await expect(recallAt).not.toContainText(/^0\.000/);
  // F1 at the threshold has its interval too, once the slider settles.
  await expect(page.locator('[data-threshold-metric="sandbox/sharp-large F1"]')).toHaveText(/^[01]\.\d{3} \[[01]\.\d+, [01]\.\d+\]$/);
  await expect(page.getByRole('img', { name: 'Precision-recall curve: urgent' }).locator('svg')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Accuracy against cost: urgent' }).locator('svg')).toBeVisible();
  await page.getByRole('table', { name: 'Metrics per model' }).scrollIntoViewIfNeeded();
  await app.screenshot('analyst-recall-and-baseline-light');
  await page.request.post(`${server.url}/api/inspector/settings.update`, { headers: { 'x-verdict-client': 'renderer' }, data: { theme: 'dark' } });
  await page.reload();
  await app.goTo('Evaluations');
  await expect(evals.metric('sandbox/skewed-small', 'urgent', 'recall')).toHaveText('0.000');
  await app.screenshot('analyst-recall-and-baseline-dark');
});

test('an analyst edits the instructions, runs again and compares with the first run: changed answers first, both questions side by side', async ({
  page,
  server,
}) => {
  test.setTimeout(120_000);
  const app = new AppPage(page);
  const evals = new EvaluationsPage(page);
  await app.open(server.uiUrl);
  const call = async <T>(op: string, input: unknown): Promise<T> =>
    ((await (await page.request.post(`${server.url}/api/inspector/${op}`, { headers: { 'x-verdict-client': 'renderer' }, data: input })).json()) as { data: T })
      .data;
  const { set } = await call<{ set: { id: string } }>('samples.add', {});
  await app.goTo('Evaluations');
  await evals.open('New run');
  await evals.model('sandbox/baseline-text').check();
  await page.getByLabel('Run name (optional)').fill('Triage, first');
  await evals.startButton.click();
  await expect(page.getByRole('heading', { level: 2, name: 'Triage, first · done' })).toBeVisible({ timeout: 60_000 });

  // The instructions edited in Question sets.
  await app.goTo('Question sets');
  await page.getByRole('button', { name: /^Support triage \(sample\)/ }).click();
  await page.getByRole('group', { name: 'Question urgent' }).getByLabel('Instructions (text, or JSON)').fill('Charged twice, or locked out?');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  expect(set.id).toBeTruthy();

  await app.goTo('Evaluations');
  await evals.open('New run');
  await evals.model('sandbox/baseline-text').check();
  await page.getByLabel('Run name (optional)').fill('Triage, edited');
  await evals.startButton.click();
  await expect(page.getByRole('heading', { level: 2, name: 'Triage, edited · done' })).toBeVisible({ timeout: 60_000 });
  const first = await page.getByLabel('Baseline run').locator('option', { hasText: 'Triage, first' }).getAttribute('value');
  await page.getByLabel('Baseline run').selectOption(first!);
  const changed = page.getByRole('table', { name: 'Changed answers' });
  await expect(changed).toBeVisible();
  // Worse first, then better; each with the item's text and both answers.
  const kinds = await changed.locator('tbody .badge').allInnerTexts();
  expect(kinds.length).toBeGreaterThan(0);
  expect(kinds).toEqual([...kinds].sort((a, b) => ['worse', 'better', 'changed'].indexOf(a) - ['worse', 'better', 'changed'].indexOf(b)));
  await expect(changed.locator('tbody tr').first()).toContainText(/urgent/);
  await expect(changed.locator('tbody tr').first()).toContainText(/(yes|no) → (yes|no)/);
  // Both runs' instructions side by side, the one that differs marked.
  await expect(page.getByRole('region', { name: /^This run: Triage, edited/ })).toContainText('Charged twice, or locked out?');
  await expect(page.getByRole('region', { name: /^Baseline: Triage, first/ })).toContainText('Is the ticket urgent');
  await expect(page.getByRole('region', { name: /^This run: Triage, edited/ }).getByText('differs')).toBeVisible();
  // Each metric's difference with its interval.
  await expect(page.locator('[data-delta="sandbox/baseline-text urgent accuracy"]')).toContainText(/[+−±]0\.\d{3} \[/);
  await page.getByRole('table', { name: 'Changed answers' }).scrollIntoViewIfNeeded();
  await app.screenshot('analyst-baseline-comparison-light');
});
