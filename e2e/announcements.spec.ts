import { pngWithRects } from '../electron/test-support/images';
import { inspector } from './fixtures/inspector';
import { test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';
import { EvaluationsPage } from './pages/evaluations-page';

/**
 * The app's one polite live region: what a screen reader is told without moving focus. Each
 * message is a new line in the region (a log), so one said twice is heard twice.
 */
test.use({ sandboxFailures: false });

test('the live region tells of finished runs, imports, review moves and errors', async ({ page, server }) => {
  test.setTimeout(90_000);
  const app = new AppPage(page);
  const evals = new EvaluationsPage(page);
  const region = page.getByRole('log', { name: 'Announcements' });
  await app.open(server.uiUrl);
  const call = inspector(page, server.url);
  await expect(region).toHaveAttribute('aria-live', 'polite');
  await expect(region).toBeEmpty();

  // A run started here is said when it ends, with how far it got.
  await call('samples.add', {});
  await app.goTo('Evaluations');
  await evals.open('New run');
  await evals.model('sandbox/baseline-text').check();
  await evals.startButton.click();
  await expect(region).toContainText(/Run “[^”]+” finished: 40 of 40 done, \$[\d.]+ spent\./, { timeout: 60_000 });

  // An import, and an import refused: both said, the refusal with why.
  const backup = JSON.stringify(await call('backup.export', {}));
  await app.goTo('Settings');
  const file = page.locator('label.file-button', { hasText: 'Import a backup' }).locator('input');
  await file.setInputFiles({ name: 'backup.json', mimeType: 'application/json', buffer: Buffer.from(backup) });
  await expect(region).toContainText(/Imported \d+ question sets, \d+ datasets, \d+ images and \d+ catalog endpoints\./);
  await file.setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('not json') });
  await expect(region).toContainText('Nothing was imported: notes.json is not JSON');

  // The review moving to another image says which, and what there is on it to judge.
  const image = pngWithRects(400, 300, [{ x: 40, y: 40, w: 100, h: 80 }]);
  await call('datasets.importImages', {
    name: 'two images',
    images: [
      { name: 'img01.png', data_url: image },
      { name: 'img02.png', data_url: image },
    ],
    questions: { box: { type: 'box', instructions: 'the dark rectangle' } },
  });
  await app.goTo('Boxes');
  // The newest dataset of images opens by itself.
  await expect(page.getByTestId('box-canvas')).toHaveAttribute('aria-label', /^Ground truth for img01\.png:/);
  await page.keyboard.press('j');
  await expect(region).toContainText('img02.png, image 2 of 2: no answer and no truth yet.');
  // The same move again is said again: a new line, not the same one left in place.
  await page.keyboard.press('k');
  await page.keyboard.press('j');
  await expect(region.getByText('img02.png, image 2 of 2: no answer and no truth yet.')).toHaveCount(2);
});
