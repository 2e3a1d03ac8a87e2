import { pngWithRects } from '../electron/test-support/images';
import { expectAccessibleInBothThemes } from './fixtures/axe';
import { inspector } from './fixtures/inspector';
import { test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';
import { EvaluationsPage } from './pages/evaluations-page';

/**
 * A run cannot pair a question set with data that cannot judge it: New run starts on the dataset
 * the set last ran on, each dataset says how many of its items carry labels for the set, and a
 * pairing with none (or text questions over images) is said, and asked again, before anything is sent.
 */

test.use({ sandboxFailures: false });

const QUESTIONS = { late: { type: 'noul', instructions: 'Did the parcel come late?' } };
const TICKETS = `id,state,expected.late\n${Array.from({ length: 6 }, (_, i) => `p${i},The parcel came ${i % 2 ? 'late' : 'early'}.,${i % 2 === 1}`).join('\n')}\n`;

test('New run starts on the dataset the set last ran on, labels each dataset for the set, and asks before an unjudgeable run', async ({ page, server }) => {
  const app = new AppPage(page);
  const evals = new EvaluationsPage(page);
  await app.open(server.uiUrl);
  const call = inspector(page, server.url);
  await call('sets.save', {
    name: 'Parcels',
    request: { model: 'sandbox/baseline-text', state: 'My parcel is late.', questions: QUESTIONS },
  });
  const tickets = await call<{ dataset: { id: string } }>('datasets.import', { name: 'tickets.csv', format: 'csv', content: TICKETS, questions: QUESTIONS });
  const run = await call<{ id: string }>('evals.start', {
    request: { model: 'sandbox/baseline-text', state: '', questions: QUESTIONS },
    dataset_id: tickets.dataset.id,
    variants: [{ model: 'sandbox/baseline-text' }],
    concurrency: 4,
  });
  await expect.poll(async () => (await call<{ status: string }>('evals.get', { id: run.id })).status, { timeout: 30_000 }).toBe('done');
  // A folder of images added afterwards, as Boxes adds them: the newest dataset, with no labels for the set.
  const image = (x: number) => pngWithRects(400, 300, [{ x, y: 40, w: 120, h: 90 }]);
  await call('datasets.importImages', {
    name: 'shelf',
    images: [
      { name: 'img01.png', data_url: image(40) },
      { name: 'img02.png', data_url: image(200) },
    ],
    questions: { card: { type: 'box', instructions: 'the card' } },
  });

  await app.goTo('Evaluations');
  await evals.open('New run');
  const form = page.getByRole('region', { name: 'New evaluation run' });
  await expect(form.getByLabel('Question set to evaluate').locator('option:checked')).toHaveText('Parcels');
  const dataset = form.getByLabel('Dataset to evaluate on');
  // The set ran on the tickets: the form starts there, not on the newest dataset.
  await expect(dataset.locator('option:checked')).toHaveText('tickets.csv (6 items, all labelled for this set)');
  await expect(dataset.locator('option')).toHaveText(['shelf (2 images, none labelled for this set)', 'tickets.csv (6 items, all labelled for this set)']);
  const pairing = form.getByRole('note', { name: 'Dataset and question set' });
  await expect(pairing).toBeHidden();

  // The images: nothing can be judged there, and the set asks about text. Said at once.
  await dataset.selectOption({ label: 'shelf (2 images, none labelled for this set)' });
  await expect(pairing).toContainText('No item of “shelf” has an expected answer for the question “late”: every answer would be paid for and none judged.');
  await expect(pairing).toContainText('“Parcels” asks about text, and the items of “shelf” are images');
  await evals.model('sandbox/baseline-text').check();
  await app.screenshotInBothThemes('run-pairing-asks', form);
  await expectAccessibleInBothThemes(page, 'New run, a dataset that cannot judge the set');

  // Start asks once more, and sends nothing.
  const starts: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/inspector/evals.start')) starts.push(r.url());
  });
  await evals.startButton.click();
  await expect(pairing.getByRole('alert')).toHaveText('Nothing was sent. Start anyway to run it as it is, or choose another dataset or question set.');
  expect(starts).toHaveLength(0);
  expect((await call<unknown[]>('evals.list', {})).length).toBe(1);

  // Back on the tickets, nothing is said and Start starts at once.
  await dataset.selectOption({ label: 'tickets.csv (6 items, all labelled for this set)' });
  await expect(pairing).toBeHidden();
  await expect(evals.startButton).toBeEnabled();

  // On the images again, a second Start runs it anyway.
  await dataset.selectOption({ label: 'shelf (2 images, none labelled for this set)' });
  await evals.startButton.click();
  await form.getByRole('button', { name: 'Start anyway' }).click();
  await expect(evals.runPanel('(running|done)')).toBeVisible();
  expect(starts).toHaveLength(1);
});
