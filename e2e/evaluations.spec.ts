import { test, expect } from './fixtures/server';
import { holdAnswer } from './fixtures/held-answer';
import { AppPage } from './pages/app-page';
import { EvaluationsPage } from './pages/evaluations-page';

test.use({ sandboxFailures: false });

const SET = {
  model: 'sandbox/baseline-text',
  state: '',
  questions: {
    late: { type: 'noul', instructions: 'Did the parcel come late?' },
    mood: { type: 'choice', instructions: 'What is the mood?', criteria: { happy: null, angry: null } },
    stars: { type: 'score', instructions: 'How pleased is the customer?', criteria: ['not at all', 'somewhat', 'very'] },
  },
};
const ROWS = [
  ['a1', 'The parcel came two days late and I am angry.', 'true', 'angry', '0'],
  ['a2', 'Arrived early, lovely and happy.', 'false', 'happy', '2'],
  ['a3', 'Late again, the parcel was late.', 'true', 'angry', '0'],
  ['a4', 'On time and happy with it.', 'false', 'happy', '2'],
  ['a5', 'It came late but I am happy.', 'true', 'happy', '1'],
  ['a6', 'Not late at all, angry about the colour.', 'false', 'angry', '0'],
  ['a7', 'Two weeks late.', 'true', 'angry', '0'],
  ['a8', 'Early delivery, happy customer.', 'false', 'happy', '2'],
];
const CSV = `id,state,expected.late,expected.mood,expected.stars\n${ROWS.map((r) => r.map((c) => (c.includes(',') ? `"${c}"` : c)).join(',')).join('\n')}\n`;

test('an analyst imports a labelled CSV, runs two models, reads metrics and reliability, opens a wrong item, saves a calibration and exports', async ({
  page,
  server,
}) => {
  test.setTimeout(90_000);
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  const app = new AppPage(page);
  const evals = new EvaluationsPage(page);
  await app.open(server.uiUrl);
  const saved = await page.request.post(`${server.url}/api/inspector/sets.save`, {
    headers: { 'x-verdict-client': 'renderer' },
    data: { name: 'Parcels', request: SET },
  });
  expect(saved.ok()).toBe(true);

  await app.goTo('Evaluations');
  // A file with a short row, a bad value and a repeated id: every problem is listed, not only the first.
  const broken = 'id,state,expected.late,expected.mood\nb1,Late.,true,angry\nb2,Early.,false\nb3,Late.,maybe,angry\nb1,Again.,true,happy\n';
  await evals.datasetFile.setInputFiles({ name: 'broken.csv', mimeType: 'text/csv', buffer: Buffer.from(broken) });
  await evals.importButton.click();
  await expect(page.getByTestId('import-result')).toContainText('Nothing imported: 3 rows with problems');
  const importProblems = page.getByRole('table', { name: 'Import problems' });
  await expect(importProblems.getByRole('row')).toHaveCount(4);
  await expect(importProblems).toContainText('has 3 cells, the header has 4: no value for "expected.mood"');
  await expect(importProblems).toContainText('id "b1" appears twice (first at row 2)');
  // Saving earlier work as a dataset says what each choice makes, with its field named on screen.
  await page.getByText('Save existing work as a dataset').click();
  await expect(page.getByText('its answers as the expected answers')).toBeVisible();
  await expect(page.getByText('Box question name', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Box question name')).toHaveValue('box');
  await evals.datasetFile.setInputFiles({ name: 'parcels.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
  await evals.importButton.click();
  await expect(page.getByTestId('import-result')).toContainText(`Imported ${ROWS.length} items`);
  // An expected answer corrected in place, checked against the set.
  const items = page.getByRole('table', { name: 'Items of parcels.csv' });
  await items.getByRole('row').filter({ hasText: 'a5' }).getByRole('button', { name: 'edit' }).click();
  const editor = page.getByLabel('Expected answers of a5');
  await editor.fill('{"late":true,"mood":"sad","stars":1}');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.locator('.notice-error')).toContainText('expected.mood: "sad" is not an option');
  await editor.fill('{"late":true,"mood":"angry","stars":1}');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  // Expected answers read as words, not JSON.
  await expect(items.getByRole('row').filter({ hasText: 'a5' })).toContainText('mood: angry');
  // Every row keeps the header's columns, whatever its content's length.
  const columnX = async (row: import('@playwright/test').Locator) => (await row.locator(':scope > *').nth(3).boundingBox())!.x;
  const headerX = await columnX(page.locator('.dataset-browser .matrix-head'));
  for (const row of await items.getByRole('row').all()) expect(Math.abs((await columnX(row)) - headerX)).toBeLessThan(1);

  await evals.open('New run');
  await evals.model('sandbox/baseline-text').check();
  await evals.model('sandbox/baseline-vision').check();
  await evals.estimateButton.click();
  await expect(evals.estimate).toContainText(`${2 * ROWS.length} requests (${ROWS.length} items × 2 models)`);
  // Two figures, each named as what it is.
  await expect(evals.estimate).toContainText('Expected cost');
  await expect(evals.estimate).toContainText('Worst case');
  // A budget below the estimate is said to stop the run early, before anything is sent.
  await page.getByLabel('Budget in USD').fill('0.0000001');
  // The estimate shown stays while this one is asked for, so its answer is awaited: it must not be
  // the call held below (the journey would then wait on a button disabled by its own held call).
  const estimated = page.waitForResponse('**/api/inspector/evals.estimate');
  await evals.estimateButton.click();
  await estimated;
  await expect(page.getByRole('note', { name: 'Budget and estimate' })).toContainText('is below this estimate: the run will stop before it ends');
  // The estimate says what one request can cost at worst per model (what the budget holds for it) and the smallest budget that sends anything.
  await expect(evals.estimate).toContainText(
    /Worst case of one request \(item a\d+, the largest in the dataset\), what a budget holds for it before sending it: sandbox\/baseline-text \$0\.\d+ · sandbox\/baseline-vision \$0\.\d+/,
  );
  const smallest = /smallest budget that lets every model send a request: \$(0\.\d+)/.exec((await evals.estimate.textContent()) ?? '')?.[1];
  expect(smallest).toBeDefined();
  // A budget below it would send nothing: said before Start, which then asks to be pressed as "Start anyway".
  const shortfall = page.getByRole('alert', { name: "Budget below one request's worst case" });
  await expect(shortfall).toContainText(`can cost at worst`);
  await expect(shortfall).toContainText(`Enter at least $${smallest}, or no budget.`);
  await expect(page.getByRole('button', { name: 'Start anyway' })).toBeVisible();
  // An estimate asked for before the models changed is not shown after they did, even when it arrives later.
  const lateEstimate = await holdAnswer(page, 'evals.estimate');
  await evals.estimateButton.click();
  await evals.model('sandbox/baseline-vision').uncheck();
  await expect(evals.estimate).toBeHidden();
  await lateEstimate.release();
  await expect(evals.estimateButton).toBeEnabled(); // the late answer has been handled
  await expect(evals.estimate).toBeHidden();
  // With no estimate yet, Start with such a budget estimates first, warns and starts nothing.
  await evals.model('sandbox/baseline-vision').check();
  await expect(evals.estimate).toBeHidden();
  await evals.startButton.click();
  await expect(shortfall).toBeVisible();
  await expect(page.getByRole('list', { name: 'Evaluation runs' })).toHaveCount(0);
  await shortfall.scrollIntoViewIfNeeded();
  await app.screenshot('evaluations-budget-below-worst-case');
  // At the smallest budget the warning goes.
  await page.getByLabel('Budget in USD').fill(smallest!);
  await expect(shortfall).toBeHidden();
  await expect(evals.startButton).toBeVisible();
  await page.getByLabel('Budget in USD').fill('');
  // Named, so two runs over the same dataset and models are told apart in the list.
  await page.getByLabel('Run name (optional)').fill('Parcels, first try');
  await evals.startButton.click();
  // The run just started is brought into view: it is drawn below the form.
  await expect(page.getByRole('heading', { level: 2, name: /^Parcels, first try · / })).toBeInViewport();
  await expect(evals.runPanel('done')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('heading', { level: 2, name: 'Parcels, first try · done' })).toBeVisible();
  // The run refused for its budget above was never started: this is the only one.
  await expect(page.getByRole('list', { name: 'Evaluation runs' }).getByRole('listitem')).toHaveCount(1);

  // Metrics side by side, and a reliability diagram per label question.
  await expect(evals.metric('sandbox/baseline-text', 'late', 'accuracy')).toHaveText(/^\d\.\d{3}$/);
  await expect(evals.metric('sandbox/baseline-vision', 'mood', 'ece')).toHaveText(/^\d\.\d{3}$/);
  await expect(evals.reliability('late')).toBeVisible();
  await expect(evals.reliability('late').locator('svg')).toBeVisible();
  // No count printed beside the markers (coinciding bins overprinted "n=10n=20"): each n is in the numbers below it.
  await expect(evals.reliability('late').locator('svg text').filter({ hasText: /^n=/ })).toHaveCount(0);
  await page
    .locator('figure', { has: evals.reliability('late') })
    .getByText('The numbers', { exact: true })
    .click();
  await expect(page.getByRole('table', { name: 'Reliability diagram: late: the numbers' }).getByRole('columnheader', { name: 'items (n)' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Confusion matrix of sandbox/baseline-text' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Error distribution: stars' }).locator('svg')).toBeVisible();
  await expect(evals.metric('sandbox/baseline-text', 'stars', 'qwk')).toHaveText(/^-?\d\.\d{3}$|^—$/);
  // Metric names read as people write them, each with what it measures.
  await expect(evals.metrics.getByRole('cell', { name: 'QWK', exact: true }).first()).toHaveAttribute('title', /^Quadratic weighted kappa/);
  await expect(evals.metrics.getByRole('cell', { name: 'Brier score', exact: true }).first()).toHaveAttribute('title', /lower is better/);
  await app.screenshot('evaluations-light');

  // Each column names its question in full under its model; the low-confidence filter says its threshold.
  for (const q of ['late', 'mood', 'stars']) {
    const name = page.locator('.results-matrix .matrix-head').getByTitle(`sandbox/baseline-vision · ${q}`).locator('.matrix-col-question');
    await expect(name).toHaveText(q);
    expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  }
  await expect(evals.filter('Low confidence')).toHaveText('Low confidence (< 0.7)');

  // A wrong item, opened.
  await evals.filter('Wrong').click();
  const firstWrong = evals.results.getByRole('button').first();
  await expect(firstWrong).toBeVisible();
  // The item is told by its text, its id beside it.
  await expect(firstWrong).toContainText(/^a\d \S/);
  const wrongId = await firstWrong.locator('.mono').textContent();
  await firstWrong.click();
  await expect(page.getByRole('heading', { name: `Item ${wrongId}` })).toBeVisible();
  // Brought into view when opened: it is drawn below the matrix.
  await expect(page.getByRole('table', { name: 'Answers of each model' })).toBeInViewport();
  await expect(page.getByRole('table', { name: 'Answers of each model' })).toContainText('sandbox/baseline-text');
  // Each method is named with its question, each answer beside its expected one.
  const firstModel = page.getByRole('table', { name: 'Answers of each model' }).getByRole('row').nth(1);
  await expect(firstModel.getByRole('cell').nth(2)).toContainText(/late: \S+/);
  await expect(firstModel.getByRole('cell').nth(1)).toContainText('expected');

  // Fit and save a calibration.
  await evals.fitButton.click();
  await expect(evals.fitted).toContainText('Temperature');
  // On these eight items the fit makes the held-out half worse (T at the end of the range): that is said,
  // and saving it is not the main action but "Save anyway".
  await expect(evals.fitted.getByRole('note')).toContainText('worse after this fit than before');
  await expect(evals.saveCalibration).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Save anyway' })).toHaveClass(/secondary/);
  await page.getByRole('button', { name: 'Save anyway' }).click();
  await expect(page.getByRole('button', { name: 'Saved: applies to later runs' })).toBeVisible();
  await app.screenshot('evaluations-item-and-calibration');
  // A fit belongs to its model: another model shows none, nor the first one's "Saved"...
  const calibrated = page.getByLabel('Model to calibrate');
  await calibrated.selectOption({ index: 1 });
  await expect(evals.fitted).toBeHidden();
  // ...and a fit answered after the model changed is not shown for the model now chosen.
  const lateFit = await holdAnswer(page, 'evals.fitCalibration');
  await evals.fitButton.click();
  await calibrated.selectOption({ index: 0 });
  await lateFit.release();
  await expect(evals.fitButton).toBeEnabled(); // the late answer has been handled
  await expect(evals.fitted).toBeHidden();
  // Back on the model it was made for, it shows, not yet saved.
  await calibrated.selectOption({ index: 1 });
  await expect(evals.fitted).toContainText('Temperature');
  await expect(page.getByRole('button', { name: 'Save anyway' })).toBeEnabled();

  // Export the results.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export results CSV' }).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toMatch(/results\.csv$/);
  const text = await (await file.createReadStream()).toArray();
  const csv = Buffer.concat(text as Buffer[]).toString('utf8');
  expect(csv.split('\n')[0]).toContain('answer.late,expected.late,method.late,correct.late,confidence.late');
  expect(csv.trim().split('\n')).toHaveLength(1 + 2 * ROWS.length);

  // A later run of the set on that model applies the calibration, and says which.
  await evals.open('New run');
  await page.getByLabel('Run name (optional)').fill('Parcels, calibrated');
  await evals.startButton.click();
  await expect(page.getByRole('heading', { level: 2, name: 'Parcels, calibrated · done' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('applied-calibrations')).toContainText(/^Calibrations applied .*: sandbox\/baseline-(text|vision): \w+ T = \d/);
  await page.getByTestId('applied-calibrations').scrollIntoViewIfNeeded();
  await app.screenshot('evaluations-calibrated-run');

  // The same screen in the dark theme.
  await page.request.post(`${server.url}/api/inspector/settings.update`, { headers: { 'x-verdict-client': 'renderer' }, data: { theme: 'dark' } });
  await page.reload();
  await expect(evals.reliability('late')).toBeVisible();
  await app.screenshot('evaluations-dark');
  // The one refused edit above is the only failed request; nothing else went wrong.
  expect(problems).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
});
