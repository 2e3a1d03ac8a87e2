import { pngWithRects } from '../electron/test-support/images';
import { inspector, sampleRun } from './fixtures/inspector';
import { test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';
import { EvaluationsPage } from './pages/evaluations-page';
import { QuestionSetsPage } from './pages/question-sets-page';

/** State that stays: what a person set on a screen is as they left it when they come back. */

test.use({ sandboxFailures: false });

test('the Boxes questions panel stays folded across screens and reloads', async ({ page, server }) => {
  const app = new AppPage(page);
  await app.open(server.uiUrl);
  const image = (x: number) => pngWithRects(400, 300, [{ x, y: 40, w: 120, h: 90 }]);
  await inspector(page, server.url)('datasets.importImages', {
    name: 'shelf',
    images: [{ name: 'img01.png', data_url: image(40) }],
    questions: { card: { type: 'box', instructions: 'the card' } },
  });
  await app.goTo('Boxes');
  const setup = page.locator('details.boxes-setup');
  // Not run yet: open, as a first visit needs it.
  await expect(setup).toHaveAttribute('open', '');
  // The fold is kept per dataset: it is folded once the dataset is chosen (before, the panel is
  // open by default too, and a fold then is kept for no dataset; on a loaded machine the first
  // click came that early and the reload found the panel open).
  await expect(page.getByRole('combobox', { name: 'Dataset', exact: true })).toContainText('shelf');
  await setup.locator('summary').click();
  await expect(setup).not.toHaveAttribute('open');
  await app.goTo('Runs');
  await app.goTo('Boxes');
  await expect(page.getByRole('combobox', { name: 'Dataset', exact: true })).toContainText('shelf');
  await expect(setup).not.toHaveAttribute('open');
  await page.reload();
  await app.goTo('Boxes');
  await expect(page.getByRole('combobox', { name: 'Dataset', exact: true })).toContainText('shelf');
  await expect(setup).not.toHaveAttribute('open');
  // Opened again, it stays open.
  await setup.locator('summary').click();
  await app.goTo('Runs');
  await app.goTo('Boxes');
  await expect(setup).toHaveAttribute('open', '');
});

test('the Try-it grid keeps its answers and its models, chosen as checkboxes, across screens', async ({ page, server }) => {
  const app = new AppPage(page);
  const sets = new QuestionSetsPage(page);
  await app.open(server.uiUrl);
  await inspector(page, server.url)('sets.save', {
    name: 'Parcels',
    request: { model: 'sandbox/baseline-text', state: 'The parcel arrived two days late.', questions: { late: { type: 'noul', instructions: 'Late?' } } },
  });
  await page.reload();
  await app.goTo('Question sets');
  await page.getByRole('button', { name: /^Parcels sandbox/ }).click();
  await expect(sets.name).toHaveValue('Parcels');
  await sets.alsoRunOn(['sandbox/sharp-large']);
  await expect(page.locator('details.compare-models summary')).toHaveText('Also run on (1)');
  await page.getByRole('button', { name: 'Run on 2 models' }).click();
  const cells = page.getByRole('table', { name: 'Examples and answers' }).locator('td.try-cell');
  await expect(cells).toHaveCount(2);
  await expect(cells.nth(1)).toContainText(/late: (yes|no) · P\(yes\)/, { timeout: 15_000 });
  const answered = (await cells.allTextContents()).map((t) => t.replace(/ · open in Runs$/, ''));
  await page.locator('details.compare-models summary').click();
  await app.screenshotInBothThemes('try-grid-models');
  await page.locator('details.compare-models summary').click();

  await app.goTo('Evaluations');
  await app.goTo('Question sets');
  await expect(sets.name).toHaveValue('Parcels');
  await expect(page.locator('details.compare-models summary')).toHaveText('Also run on (1)');
  await expect(page.getByRole('button', { name: 'Run on 2 models' })).toBeVisible();
  await expect(cells).toHaveCount(2);
  expect((await cells.allTextContents()).map((t) => t.replace(/ · open in Runs$/, ''))).toEqual(answered);

  // Four models at 1280 × 800: the grid runs across the page and shows every model without scrolling sideways.
  await sets.alsoRunOn(['sandbox/cheap-mini', 'sandbox/skewed-small']);
  await expect(page.getByRole('table', { name: 'Examples and answers' }).getByRole('columnheader')).toHaveCount(5);
  const widths = await page
    .getByRole('table', { name: 'Examples and answers' })
    .evaluate((table) => ({ scroll: table.parentElement!.scrollWidth, client: table.parentElement!.clientWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  await app.screenshotInBothThemes('try-grid-four-models');
});

test('New run keeps its ticked models, runs a finished run again with it as the baseline, and the samples can be added later', async ({ page, server }) => {
  test.setTimeout(90_000);
  const app = new AppPage(page);
  const evals = new EvaluationsPage(page);
  await app.open(server.uiUrl);
  const call = inspector(page, server.url);
  const first = await sampleRun(call, ['sandbox/baseline-text', 'sandbox/cheap-mini']);
  // With both samples there, nothing offers to add them.
  const datasets = await call<{ id: string; sample: boolean }[]>('datasets.list', {});
  await app.goTo('Evaluations');
  await expect(page.getByRole('button', { name: 'Add the samples' })).toHaveCount(0);

  // Ticked models stay ticked across screens.
  await evals.open('New run');
  await evals.model('sandbox/sharp-large').check();
  await app.goTo('Boxes');
  await app.goTo('Evaluations');
  await evals.open('New run');
  await expect(evals.model('sandbox/sharp-large')).toBeChecked();

  // Run again: New run opens on the run's dataset and models, the run as its baseline.
  await evals.open('Runs');
  await page.getByRole('button', { name: 'Run again against this run' }).click();
  await expect(evals.tab('New run')).toHaveAttribute('aria-selected', 'true');
  const form = page.getByRole('region', { name: 'New evaluation run' });
  await expect(form.getByLabel('Dataset to evaluate on').locator('option:checked')).toHaveText(/^Support tickets \(sample\)/);
  await expect(evals.model('sandbox/baseline-text')).toBeChecked();
  await expect(evals.model('sandbox/cheap-mini')).toBeChecked();
  // Its models, not those ticked before.
  await expect(evals.model('sandbox/sharp-large')).not.toBeChecked();
  await expect(form.getByLabel('Baseline for the new run').locator('option:checked')).toHaveText(new RegExp(`^${first.name.replace(/[()]/g, '\\$&')} · `));

  await app.screenshotInBothThemes('run-again-form', form);

  await evals.startButton.click();
  await expect(evals.runPanel('(running|done)')).toBeVisible();
  await expect
    .poll(async () => (await call<{ id: string; baseline_id: string | null }[]>('evals.list', {})).find((r) => r.id !== first.id)?.baseline_id)
    .toBe(first.id);

  // With the sample dataset gone, the samples can be added again from Evaluations.
  await call('datasets.delete', { id: datasets.find((d) => d.sample)!.id });
  await page.reload();
  await app.goTo('Evaluations');
  const addSamples = page.getByRole('button', { name: 'Add the samples' });
  await expect(addSamples).toBeVisible();
  await addSamples.click();
  await expect(addSamples).toHaveCount(0);
  expect((await call<{ sample: boolean }[]>('datasets.list', {})).some((d) => d.sample)).toBe(true);
});
