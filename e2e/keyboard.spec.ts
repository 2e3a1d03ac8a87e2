import type { Locator, Page } from '@playwright/test';
import { pngWithRects } from '../electron/test-support/images';
import { inspector } from './fixtures/inspector';
import { inspectorCalls } from './fixtures/network';
import { test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';
import { EvaluationsPage } from './pages/evaluations-page';

/**
 * One journey per persona with the keyboard alone: no click, no pointer, no field filled by script.
 * After each action the journey checks where focus landed, since that is where a screen reader
 * user is and where the next Tab starts.
 */
test.use({ sandboxFailures: false });

/** Presses Tab (or Shift+Tab) until `target` has focus; fails when it is not reached in `max` presses. */
async function tabTo(page: Page, target: Locator, { max = 150, back = false } = {}): Promise<void> {
  await target.waitFor({ state: 'attached' });
  for (let i = 0; i < max; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${target} not reached in ${max} presses of ${back ? 'Shift+Tab' : 'Tab'}`);
}

const announcements = (page: Page) => page.getByRole('log', { name: 'Announcements' });

test('an analyst starts an evaluation run and reads its results', async ({ page, server }) => {
  test.setTimeout(120_000);
  const app = new AppPage(page);
  const evals = new EvaluationsPage(page);
  await app.open(server.uiUrl);

  // The sample offer goes once accepted: focus goes to the set it added.
  await tabTo(page, page.getByRole('button', { name: 'Add the sample set and dataset' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: /^Support triage \(sample\)/ })).toBeFocused();
  await expect(announcements(page)).toContainText('Added the sample question set');

  // A screen switch puts focus on the new screen's heading.
  await page.keyboard.press('Alt+3');
  await expect(page.getByRole('heading', { level: 1, name: 'Evaluations' })).toBeFocused();

  // The tabs are one Tab stop; the arrows move between them and show each at once.
  await tabTo(page, evals.tab('New run'));
  await expect(evals.tab('New run')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowRight');
  await expect(evals.tab('Datasets')).toBeFocused();
  await expect(evals.tab('Datasets')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowLeft');
  await expect(evals.tab('New run')).toBeFocused();

  // Two models, ticked with Space; Start run with Enter; focus goes to the new run's heading.
  for (const model of ['sandbox/baseline-text', 'sandbox/sharp-large']) {
    await tabTo(page, evals.model(model));
    await page.keyboard.press('Space');
    await expect(evals.model(model)).toBeChecked();
  }
  await tabTo(page, evals.startButton);
  await page.keyboard.press('Enter');
  const heading = page.locator('[data-run-id]').getByRole('heading', { level: 2 }).first();
  await expect(heading).toBeFocused();
  await expect(heading).toContainText('× 2 models');
  // 40 items, each sent to both models.
  await expect(announcements(page)).toContainText(/Run “.*” finished: 80 of 80 done/, { timeout: 60_000 });

  // The results are one Tab stop, on the first item; arrows move between cells.
  const first = evals.results.getByRole('button', { name: /^t01/ });
  await tabTo(page, first, { max: 250 });
  await page.keyboard.press('ArrowDown');
  const second = evals.results.getByRole('button', { name: /^t02/ });
  await expect(second).toBeFocused();
  await page.keyboard.press('ArrowRight');
  const answer = evals.results
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: /^t02/ }) })
    .getByRole('gridcell')
    .nth(1);
  await expect(answer).toBeFocused();
  await expect(answer).toHaveText(/\S/);
  // Enter opens the item beside the results, and focus stays in the grid.
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Item t02' })).toBeVisible();
  await expect(answer).toBeFocused();
  // The pane is the next Tab stop after the grid; closing it returns focus to the cell it was opened from.
  await page.keyboard.press('Tab');
  const close = page.getByRole('complementary').getByRole('button', { name: 'Close' });
  await expect(close).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Item t02' })).toHaveCount(0);
  await expect(answer).toBeFocused();
  // Ctrl+End and Ctrl+Home reach the last and the first cell, rows the list had not drawn yet included.
  const row = (id: string) => evals.results.getByRole('row').filter({ has: page.getByRole('button', { name: new RegExp(`^${id}`) }) });
  await page.keyboard.press('Control+End');
  await expect(row('t40').getByRole('gridcell').last()).toBeFocused();
  await page.keyboard.press('Control+Home');
  await expect(row('t01').getByRole('gridcell').first()).toBeFocused();
  // Keys pressed faster than the list scrolls land where they say, and the list shows where they landed.
  for (let i = 0; i < 3; i += 1) {
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Control+Home');
    await expect(row('t01').getByRole('gridcell').first()).toBeFocused();
    await expect(row('t01').getByRole('gridcell').first()).toBeInViewport();
  }
});

test('a reviewer runs a model over images, draws a box and judges the answers', async ({ page, server }) => {
  test.setTimeout(90_000);
  const app = new AppPage(page);
  await app.open(server.uiUrl);
  const image = (x: number) => pngWithRects(400, 300, [{ x, y: 60, w: 120, h: 90 }]);
  await inspector(page, server.url)('datasets.importImages', {
    name: 'shelves',
    images: [
      { name: 'img01.png', data_url: image(40) },
      { name: 'img02.png', data_url: image(220) },
    ],
    questions: { box: { type: 'box', instructions: 'the dark rectangle' } },
  });
  await page.keyboard.press('Alt+4');
  await expect(page.getByRole('heading', { level: 1, name: 'Boxes' })).toBeFocused();

  // Run over the dataset: focus stays on the button while the run starts and after.
  const runOver = page.getByRole('button', { name: 'Run over the dataset' });
  await tabTo(page, runOver);
  await page.keyboard.press('Enter');
  await expect(announcements(page)).toContainText(/Run “Boxes: sandbox\/baseline-vision” finished: 2 of 2 done/, { timeout: 30_000 });
  await expect(runOver).toBeFocused();

  // A box drawn from the keyboard on the canvas (N: the middle 30% of the image each way, 0.35 to 0.65 of
  // 400 × 300 pixels), moved (Shift+→: 5% of the width, 20 pixels), and read back from the list.
  const canvas = page.getByTestId('box-canvas');
  await tabTo(page, canvas);
  await page.keyboard.press('n');
  const box = page.getByRole('list', { name: 'Ground-truth boxes' }).getByRole('button', { name: /^Box 1/ });
  await expect(box).toHaveText('Box 1 x 140–260, y 105–195 px');
  await page.keyboard.press('Shift+ArrowRight');
  await expect(box).toHaveText('Box 1 x 160–280, y 105–195 px');
  await expect(canvas).toBeFocused();

  // A judges the answer under review; the review moves to the next image, which is said, and
  // focus goes on to that image's canvas.
  await page.keyboard.press('a');
  await expect(announcements(page)).toContainText('box accepted.');
  await expect(announcements(page)).toContainText('img02.png, image 2 of 2: box no truth.');
  const next = page.getByTestId('box-canvas');
  await expect(next).toHaveAttribute('aria-label', /^Ground truth for img02\.png:/);
  await expect(next).toBeFocused();
  // R rejects it; K goes back to the first image, whose verdict stayed.
  await page.keyboard.press('r');
  await expect(announcements(page)).toContainText('box rejected.');
  await page.keyboard.press('k');
  await expect(announcements(page)).toContainText('img01.png, image 1 of 2');
  await expect(page.getByTestId('verdict-box')).toHaveText(/^Accepted/);
});

test('an operator creates an API key', async ({ page, server }) => {
  const app = new AppPage(page);
  await app.open(server.uiUrl);
  await page.keyboard.press('Alt+9');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeFocused();
  const name = page.getByLabel('Name', { exact: true });
  await tabTo(page, name);
  await page.keyboard.type('nightly job');
  // Enter in the field creates the key; focus goes to the notice with its secret, which is said.
  await page.keyboard.press('Enter');
  const notice = page.getByRole('status', { name: 'Copy this key now; it will not be shown again.' });
  await expect(notice).toBeFocused();
  await expect(page.getByTestId('created-api-key')).toHaveText(/^vd-[0-9a-f]{12}-[\w-]{43}$/);
  // Done is the next stop; it closes the notice and returns to the name field.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Done' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(notice).toHaveCount(0);
  await expect(name).toBeFocused();
  await expect(page.getByRole('table', { name: 'API server keys' }).getByRole('row', { name: /nightly job/ })).toBeVisible();
});

test('single-key shortcuts are listed with ?, and can be turned off or given other keys in Settings', async ({ page, server }) => {
  test.setTimeout(60_000);
  const app = new AppPage(page);
  const calls = inspectorCalls(page);
  await app.open(server.uiUrl);
  const image = pngWithRects(400, 300, [{ x: 40, y: 60, w: 120, h: 90 }]);
  await inspector(page, server.url)('datasets.importImages', {
    name: 'shelves',
    images: [
      { name: 'img01.png', data_url: image },
      { name: 'img02.png', data_url: image },
    ],
    questions: { box: { type: 'box', instructions: 'the dark rectangle' } },
  });
  // ? lists them; Escape closes the list and focus is back where it was.
  await page.keyboard.press('Alt+9');
  const heading = page.getByRole('heading', { level: 1, name: 'Settings' });
  await expect(heading).toBeFocused();
  await page.keyboard.press('Shift+Slash');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('row', { name: /Accept the answer under review/ })).toContainText('A');
  await app.screenshot('shortcuts-dialog');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(heading).toBeFocused();

  // Accept on Y instead of A; a key another shortcut has is refused beside its field.
  const accept = page.getByLabel('Accept the answer under review');
  await tabTo(page, accept);
  await page.keyboard.press('Control+a');
  await page.keyboard.type('r');
  await expect(page.getByText('R is already “Reject the answer under review”')).toBeVisible();
  await page.keyboard.press('Backspace');
  await page.keyboard.type('y');
  await expect(page.getByText(/is already/)).toHaveCount(0);
  await app.screenshot('settings-shortcuts');

  // On Boxes, J moves on, A does nothing now, and Y accepts.
  await page.keyboard.press('Alt+4');
  const announcements = page.getByRole('log', { name: 'Announcements' });
  await expect(page.getByTestId('review-keys')).toContainText('Y accept the answer under review');
  await page.keyboard.press('j');
  await expect(announcements).toContainText('img02.png, image 2 of 2');
  await page.keyboard.press('a');
  await page.keyboard.press('y');
  const accepted = announcements.getByText('The whole image accepted.');
  await expect(accepted).toHaveCount(1);
  // Nothing else is on its way: A sent no verdict of its own.
  await calls.quiet();
  await expect(accepted).toHaveCount(1);

  // Turned off, no single key acts, and ? lists them as off.
  await page.keyboard.press('Alt+9');
  await tabTo(page, page.getByLabel('Single-key shortcuts are on'));
  await page.keyboard.press('Space');
  await expect(page.getByLabel('Single-key shortcuts are on')).not.toBeChecked();
  await page.keyboard.press('Alt+4');
  await page.keyboard.press('k');
  await page.keyboard.press('Shift+Slash');
  await calls.quiet();
  await expect(dialog).toBeHidden();
  await expect(announcements).not.toContainText('img01.png, image 1 of 2');
  await expect(page.getByTestId('review-keys')).toHaveText('Single-key shortcuts are turned off (Settings → Keyboard shortcuts).');
});
