import { pngWithRects } from '../electron/test-support/images';
import { expectAccessibleInBothThemes } from './fixtures/axe';
import { inspector, sampleRun } from './fixtures/inspector';
import { inspectorCalls } from './fixtures/network';
import { test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';
import { EvaluationsPage } from './pages/evaluations-page';
import { SettingsPage } from './pages/settings-page';

/**
 * axe-core over every screen and the states the accessibility audit of 2026-11-27 covered, in the
 * light and the dark theme: no critical or serious violation, and no other one without an allowance
 * (fixtures/axe.ts).
 */
test.use({ sandboxFailures: false });

test('first start, question sets, runs, endpoints, ZDR and settings', async ({ page, server }) => {
  test.setTimeout(180_000);
  const app = new AppPage(page);
  const calls = inspectorCalls(page);
  await page.goto(server.url);
  await expect(page.getByRole('heading', { name: 'Sign in to Verdict' })).toBeVisible();
  await expectAccessibleInBothThemes(page, 'sign-in screen');

  await app.open(server.uiUrl);
  await expect(page.getByRole('region', { name: 'Samples to try' })).toBeVisible();
  await calls.quiet();
  await expectAccessibleInBothThemes(page, 'Question sets, first start');

  await page.getByRole('button', { name: 'Add the sample set and dataset' }).click();
  await page.getByRole('button', { name: /^Support triage \(sample\)/ }).click();
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  await calls.quiet();
  await expectAccessibleInBothThemes(page, 'Question sets, sample set open');

  await page.getByRole('button', { name: 'Collapse the sidebar' }).click();
  await expectAccessibleInBothThemes(page, 'Question sets, sidebar collapsed');
  await page.getByRole('button', { name: 'Expand the sidebar' }).click();

  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('link', { name: 'Open in Runs' })).toBeVisible({ timeout: 20_000 });
  await app.goTo('Runs');
  await calls.quiet();
  await expectAccessibleInBothThemes(page, 'Runs, one run in history');

  await app.goTo('Endpoints');
  await page.getByRole('button', { name: 'Measure now' }).click();
  await expect(page.getByText(/Sent \d+ measuring requests/)).toBeVisible({ timeout: 20_000 });
  await calls.quiet();
  await expectAccessibleInBothThemes(page, 'Endpoints, with traffic');

  await app.goTo('ZDR');
  await calls.quiet();
  await expectAccessibleInBothThemes(page, 'ZDR');

  await app.goTo('Settings');
  await calls.quiet();
  await expectAccessibleInBothThemes(page, 'Settings');
});

test('settings: a key created, a provider key saved', async ({ page, server }) => {
  test.setTimeout(90_000);
  const app = new AppPage(page);
  const settings = new SettingsPage(page);
  const calls = inspectorCalls(page);
  await app.open(server.uiUrl);
  await app.goTo('Settings');
  await page.getByLabel('Name', { exact: true }).fill('nightly job');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByTestId('created-api-key')).toBeVisible();
  await calls.quiet();
  await expectAccessibleInBothThemes(page, 'Settings, API key just created');
  await settings.storeKey('OpenAI', 'sk-test-not-a-real-key');
  await expect(settings.keyStatus('OpenAI')).toHaveText(/set/);
  await calls.quiet();
  await expectAccessibleInBothThemes(page, 'Settings, provider key saved');
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await expectAccessibleInBothThemes(page, 'the keyboard shortcuts dialog');
});

test('evaluations: the tabs, a run of 40 items on two models, an item open', async ({ page, server }) => {
  test.setTimeout(180_000);
  const app = new AppPage(page);
  const evals = new EvaluationsPage(page);
  const calls = inspectorCalls(page);
  await app.open(server.uiUrl);
  const run = await sampleRun(inspector(page, server.url));
  await app.goTo('Evaluations');
  await evals.open('New run');
  await calls.quiet();
  await expectAccessibleInBothThemes(page, 'Evaluations, New run tab');
  await evals.open('Datasets');
  await page
    .getByRole('button', { name: /Support tickets/ })
    .first()
    .click();
  await calls.quiet();
  await expectAccessibleInBothThemes(page, 'Evaluations, Datasets tab with a dataset open');
  await evals.open('Runs');
  await expect(evals.runPanel('done')).toContainText(run.name);
  await expect(evals.results.getByRole('button', { name: /^t01/ })).toBeVisible();
  await calls.quiet();
  await expectAccessibleInBothThemes(page, 'Evaluation run page, 40 items × 2 models');
  await evals.results.getByRole('button', { name: /^t01/ }).click();
  await expect(page.getByRole('table', { name: 'Answers of each model' })).toBeVisible();
  await calls.quiet();
  await expectAccessibleInBothThemes(page, 'Evaluation run page, item open');
});

test('boxes: a dataset of two images before and after a run', async ({ page, server }) => {
  test.setTimeout(90_000);
  const app = new AppPage(page);
  const evals = new EvaluationsPage(page);
  const calls = inspectorCalls(page);
  await app.open(server.uiUrl);
  const call = inspector(page, server.url);
  const image = (x: number) => pngWithRects(400, 300, [{ x, y: 40, w: 120, h: 90 }]);
  await call('datasets.importImages', {
    name: 'two images',
    images: [
      { name: 'img01.png', data_url: image(40) },
      { name: 'img02.png', data_url: image(200) },
    ],
    questions: { object: { type: 'box', instructions: 'the dark rectangle' } },
  });
  await app.goTo('Boxes');
  await expect(page.getByTestId('box-canvas')).toBeVisible();
  await calls.quiet();
  await expectAccessibleInBothThemes(page, 'Boxes workbench, before the run');
  await page.getByRole('button', { name: 'Run over the dataset' }).click();
  await expect(page.getByTestId('box-run-progress')).toContainText('done: 2 of 2 done', { timeout: 30_000 });
  await calls.quiet();
  await expectAccessibleInBothThemes(page, 'Boxes workbench, after the run');
  await app.goTo('Evaluations');
  await evals.open('Runs');
  await expect(evals.runPanel('done')).toBeVisible();
  await calls.quiet();
  await expectAccessibleInBothThemes(page, 'Evaluations, Runs tab on the box run');
});
