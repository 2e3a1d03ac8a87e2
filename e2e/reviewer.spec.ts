import { readFileSync } from 'node:fs';
import { test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';
import { pngWithRect } from '../electron/test-support/images';

test.use({ sandboxFailures: false });

const png = (rect: { x: number; y: number; w: number; h: number }) => Buffer.from(pngWithRect(400, 300, rect).split(',')[1]!, 'base64');

test('a reviewer draws ground truth on images that become a dataset, runs a box question over it, checks IoU, reviews and exports', async ({
  page,
  server,
}) => {
  const app = new AppPage(page);
  await app.open(server.uiUrl);
  await app.goTo('Boxes');
  await expect(page.getByText('No images loaded')).toBeVisible();

  await page
    .locator('label.file-button', { hasText: 'Add images' })
    .locator('input')
    .setInputFiles([
      { name: 'card.png', mimeType: 'image/png', buffer: png({ x: 120, y: 40, w: 200, h: 90 }) },
      { name: 'badge.png', mimeType: 'image/png', buffer: png({ x: 20, y: 180, w: 80, h: 80 }) },
    ]);
  const queue = page.getByRole('list', { name: 'Images' });
  await expect(queue.getByRole('listitem')).toHaveCount(2);
  await queue.getByRole('button', { name: /card\.png/ }).click();

  // Draw the true box by dragging across the card (image 400 x 300, fitted into the editor's view).
  await page.getByTestId('box-canvas').scrollIntoViewIfNeeded();
  const area = (await page.getByTestId('box-image').boundingBox())!;
  const at = (fx: number, fy: number) => [area.x + fx * area.width, area.y + fy * area.height] as const;
  await page.mouse.move(...at(120 / 400, 40 / 300));
  await page.mouse.down();
  await page.mouse.move(...at(220 / 400, 90 / 300), { steps: 4 });
  await page.mouse.move(...at(320 / 400, 130 / 300), { steps: 4 });
  await page.mouse.up();
  await expect(page.getByText('1 ground-truth box')).toBeVisible();

  // Keyboard: N adds a box, Delete removes the selected one.
  await page.getByRole('application').focus();
  await page.keyboard.press('n');
  await expect(page.getByText('2 ground-truth boxes')).toBeVisible();
  await page.keyboard.press('Delete');
  await expect(page.getByText('1 ground-truth box')).toBeVisible();

  await page.getByLabel('Model').fill('sandbox/baseline-vision');
  await page.getByLabel('Locate').fill('the blue card');
  await page.getByRole('button', { name: 'Run over the dataset' }).click();
  await expect(page.getByTestId('iou')).toHaveText(/IoU (0\.(9\d|8[5-9])\d|1\.000) · pass/, { timeout: 15_000 });
  await app.screenshot('boxes-review');

  // Stay on this image after the verdict, to write a note on it.
  await page.getByLabel('Next image once every answer has a verdict').uncheck();
  await page.getByRole('button', { name: 'Accept every answer' }).click();
  await expect(page.getByRole('button', { name: 'Accept every answer' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByLabel('Note').fill('tight fit');
  await page.getByLabel('Note').blur();

  await page.getByLabel('Verdict', { exact: true }).selectOption('unreviewed');
  await expect(queue.getByRole('listitem')).toHaveCount(1);
  await expect(queue).toContainText('badge.png');

  const download = page.waitForEvent('download');
  await page.getByLabel('Export format').selectOption('csv');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const csv = readFileSync(await (await download).path(), 'utf8').split('\n');
  expect(csv[0]).toBe(
    'image,width,height,question,truth_x,truth_y,truth_width,truth_height,answer_x,answer_y,answer_width,answer_height,iou,pass,model,verdict,stale,note',
  );
  const card = csv.find((line) => line.startsWith('card.png'))!.split(',');
  // The drawn box is the card (120, 40, 200 x 90 px) to within the pointer's rounding.
  expect(card.slice(0, 4)).toEqual(['card.png', '400', '300', 'box']);
  card.slice(4, 8).forEach((v, i) => expect(Math.abs(Number(v) - [120, 40, 200, 90][i]!)).toBeLessThanOrEqual(2));
  expect(card.slice(12)).toEqual([expect.stringMatching(/^(0\.(9|8[5-9])\d*|1\.0+)$/), 'true', 'sandbox/baseline-vision', 'accepted', 'false', 'tight fit']);

  // Everything above was saved: it is still there after a reload.
  await page.reload();
  await app.goTo('Boxes');
  await queue.getByRole('button', { name: /card\.png/ }).click();
  await expect(page.getByRole('button', { name: 'Accept every answer' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('iou')).toContainText('pass');
});
