import { pngWithRects } from '../electron/test-support/images';
import { inspector } from './fixtures/inspector';
import { test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';
import { BoxesPage } from './pages/boxes-page';
import { ReviewPage } from './pages/review-page';

// Answers every time: the journey counts what was captured.
test.use({ sandboxFailures: false });

const SIZE = { width: 400, height: 300 };
const CARD = { x: 60, y: 50, w: 160, h: 120 };
const QUESTIONS = { card: { type: 'box', instructions: 'The blue card' }, visible: { type: 'noul', instructions: 'Is a card in the picture?' } };

test("a captured image's box question is answered on the workbench inside Review: the box drawn becomes the item's expected box, the model's shown after", async ({
  page,
  server,
}) => {
  test.setTimeout(90_000);
  const app = new AppPage(page);
  const review = new ReviewPage(page);
  const boxes = new BoxesPage(page);
  await app.open(server.uiUrl);
  const call = inspector(page, server.url);
  const rule = await call<{ dataset_id: string }>('captures.create', { name: 'shelf photos', keep_images: true });
  const { key } = await call<{ key: string }>('apiKeys.create', { name: 'camera' });
  const state = [{ type: 'image_url', image_url: { url: pngWithRects(SIZE.width, SIZE.height, [CARD]) } }];
  const response = await page.request.post(`${server.url}/api/alpha/decisions`, {
    headers: { Authorization: `Bearer ${key}` },
    data: { model: 'sandbox/baseline-vision', state, questions: QUESTIONS },
  });
  expect(response.status(), await response.text()).toBe(200);
  await expect
    .poll(async () => (await call<{ items: number }[]>('datasets.list', {})).find((d) => (d as { id?: string }).id === rule.dataset_id)?.items, {
      timeout: 15_000,
    })
    .toBe(1);

  await app.goTo('Review');
  await review.dataset.selectOption(rule.dataset_id);
  await expect(review.itemHeading(1)).toBeFocused();
  await expect(boxes.image).toBeVisible();
  await expect(page.getByTestId('box-answer')).toHaveText('No box drawn yet.');
  // Enter before the box is drawn names what is missing.
  await page.keyboard.press('y');
  await page.keyboard.press('Enter');
  await expect(review.announcements).toContainText('Not committed: answer card first');
  await boxes.draw(SIZE, [CARD.x, CARD.y], [CARD.x + CARD.w, CARD.y + CARD.h]);
  await expect(page.getByTestId('box-answer')).toHaveText(/^Your box: t 0\.1[67] l 0\.1[45] b 0\.5[67] r 0\.5[45]/);
  const drawnText = await page.getByTestId('box-answer').textContent();
  // Keys on the workbench draw, not answer: N there is a new box (the answer now), not "No"; Delete removes it again.
  await boxes.canvas.focus();
  await page.keyboard.press('n');
  await expect(review.question('visible').getByRole('radio', { name: 'Yes' })).toBeChecked();
  await expect(page.getByTestId('box-answer')).not.toHaveText(drawnText!);
  await page.keyboard.press('Delete');
  await expect(page.getByTestId('box-answer')).toHaveText(drawnText!);
  await app.screenshotInBothThemes('review-box');
  await review.itemHeading(1).focus();
  await page.keyboard.press('Enter');
  await expect(review.committedHeading(1)).toBeVisible();
  // The model's box beside the reviewer's, with how far they overlap: both are on the card.
  await expect(review.modelAnswers.first()).toContainText(/^IoU \d\.\d\d · t /);
  const overlap = Number(/IoU (\d\.\d\d)/.exec((await review.modelAnswers.first().textContent()) ?? '')![1]);
  expect(overlap).toBeGreaterThan(0.8);

  const { items } = await call<{ items: { expected: { card?: { top: number; left: number; bottom: number; right: number }; visible?: boolean } }[] }>(
    'datasets.items',
    { dataset_id: rule.dataset_id },
  );
  const drawn = items[0]!.expected.card!;
  expect(items[0]!.expected.visible).toBe(true);
  expect(drawn.top).toBeCloseTo(CARD.y / SIZE.height, 1);
  expect(drawn.left).toBeCloseTo(CARD.x / SIZE.width, 1);
  expect(drawn.bottom).toBeCloseTo((CARD.y + CARD.h) / SIZE.height, 1);
  expect(drawn.right).toBeCloseTo((CARD.x + CARD.w) / SIZE.width, 1);
});
