import { expectAccessibleInBothThemes } from './fixtures/axe';
import { inspector, sampleRun } from './fixtures/inspector';
import { holdInspectorCalls } from './fixtures/network';
import { test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';
import { EvaluationsPage } from './pages/evaluations-page';

/** A run page you can move through: a section index kept in view, one "Metrics" heading, confusion matrices two by two. */

test.use({ sandboxFailures: false });

test('the run page has a section index that stays in view and moves to each section, one Metrics heading, and its confusion matrices two by two', async ({
  page,
  server,
}) => {
  test.setTimeout(120_000);
  const app = new AppPage(page);
  const evals = new EvaluationsPage(page);
  await app.open(server.uiUrl);
  const call = inspector(page, server.url);
  const first = await sampleRun(call, ['sandbox/baseline-text', 'sandbox/sharp-large', 'sandbox/cheap-mini']);
  await app.goTo('Evaluations');
  await evals.open('Runs');
  await expect(evals.runPanel('done')).toContainText(first.name);

  const index = page.getByRole('navigation', { name: 'Sections of this run' });
  await expect(index.getByRole('button')).toHaveText(['Summary', 'Metrics', 'Cascade', 'Items', 'Calibration']);
  // Items: the results, far down the page, with focus on their heading; the index still in view above
  // them. The cascade's curve, above the results, is held back until after the move, as a slow
  // answer would come: when it comes its section grows, and the results stay where the reader is.
  const curve = await holdInspectorCalls(page, 'evals.cascadeCurve');
  await page.reload();
  await expect(index.getByRole('button', { name: 'Items' })).toBeVisible();
  await index.getByRole('button', { name: 'Items' }).click();
  const results = page.getByRole('heading', { level: 2, name: 'Results' });
  await expect(results).toBeFocused();
  await expect(results).toBeInViewport();
  const growing = page.getByRole('region', { name: 'Cascade', exact: true });
  const before = (await growing.boundingBox())!.height;
  curve.release();
  await expect(page.getByRole('img', { name: /^Cascade accuracy against cost/ })).toBeVisible();
  expect((await growing.boundingBox())!.height).toBeGreaterThan(before + 100);
  await expect(results).toBeInViewport();
  await curve.stop();
  await expect(index).toBeInViewport();
  await index.getByRole('button', { name: 'Calibration' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Calibration' })).toBeFocused();
  await index.getByRole('button', { name: 'Summary' }).click();
  await expect(page.getByRole('heading', { level: 2, name: `${first.name} · done` })).toBeFocused();

  // The majority baseline comes first after the metric's name: however many models, it is not pushed out of view.
  expect((await evals.metrics.getByRole('columnheader').allTextContents())[1]).toBe('Majority baseline');

  // One heading says Metrics, however many sections speak of metrics.
  await expect(page.getByRole('heading', { name: 'Metrics', exact: true })).toHaveCount(1);

  // The choice question's three confusion matrices: two side by side, the third under the first.
  await index.getByRole('button', { name: 'Metrics' }).click();
  const boxes = await page
    .getByRole('table', { name: /^Confusion matrix of / })
    .evaluateAll((ts) => ts.map((t) => t.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y })));
  expect(boxes).toHaveLength(3);
  expect(boxes[1]!.y).toBe(boxes[0]!.y);
  expect(boxes[1]!.x).toBeGreaterThan(boxes[0]!.x);
  expect(boxes[2]!.x).toBe(boxes[0]!.x);
  expect(boxes[2]!.y).toBeGreaterThan(boxes[0]!.y);

  // Answers that read right: P(yes) named in the cells, a choice's confidence named (not p=), a score's level with its mean.
  await index.getByRole('button', { name: 'Items' }).click();
  await expect(
    evals.results
      .getByRole('gridcell')
      .filter({ hasText: /^(yes|no) · P\(yes\) \d\.\d\d/ })
      .first(),
  ).toBeVisible();
  await evals.results.getByRole('button', { name: /^t01/ }).click();
  const answers = page.getByRole('table', { name: 'Answers of each model' });
  await expect(answers).toContainText(/category: \w+ confidence \d\.\d\d/);
  await expect(answers).toContainText(/tone: level \d( \([^)]+\))? · mean \d\.\d\d/);
  await expect(answers).not.toContainText('p=');
  await app.screenshotInBothThemes('run-page-item', answers);

  await page.getByText('Confusion: category').scrollIntoViewIfNeeded();
  await app.screenshotInBothThemes('run-page-sections');
  await expectAccessibleInBothThemes(page, 'Evaluation run page with its section index');
});

test('at 1024 px the deltas against the baseline show every one of five models without scrolling sideways', async ({ page, server }) => {
  test.setTimeout(120_000);
  const app = new AppPage(page);
  const evals = new EvaluationsPage(page);
  await app.open(server.uiUrl);
  const call = inspector(page, server.url);
  const models = ['sandbox/baseline-text', 'sandbox/sharp-large', 'sandbox/cheap-mini', 'sandbox/skewed-small', 'sandbox/decider'];
  const baseline = await sampleRun(call, models);
  const run = await sampleRun(call, models);
  await call('evals.setBaseline', { id: run.id, baseline_id: baseline.id });
  await page.setViewportSize({ width: 1024, height: 700 });
  await app.goTo('Evaluations');
  await evals.open('Runs');
  const deltas = page.getByRole('table', { name: 'Metric deltas against the baseline' });
  await deltas.scrollIntoViewIfNeeded();
  // Each model's column lies inside the box the table scrolls in: none is cut off at its right edge.
  // (The box is a scrolling region only while the table overflows it.)
  const frame = await deltas.locator('xpath=..').boundingBox();
  await expect(page.getByRole('region', { name: 'Metric deltas against the baseline, scrolls' })).toHaveCount(0);
  const headers = deltas.getByRole('columnheader');
  await expect(headers).toHaveCount(2 + models.length);
  for (const header of await headers.all()) {
    const box = (await header.boundingBox())!;
    expect(box.x + box.width, `${await header.textContent()} ends inside the table's box`).toBeLessThanOrEqual(frame!.x + frame!.width + 1);
  }
  await app.screenshot('run-page-deltas-1024');
});
