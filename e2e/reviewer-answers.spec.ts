import type { Page } from '@playwright/test';
import { test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';
import { BoxesPage } from './pages/boxes-page';
import { pngWithRects, type Rect } from '../electron/test-support/images';

test.use({ sandboxFailures: false });

const SIZE = { width: 400, height: 300 };
const SCENES: Record<string, { card: Rect; badge: Rect }> = {
  'shelf-1.png': { card: { x: 40, y: 40, w: 160, h: 90 }, badge: { x: 260, y: 170, w: 90, h: 90 } },
  'shelf-2.png': { card: { x: 200, y: 30, w: 150, h: 100 }, badge: { x: 30, y: 160, w: 100, h: 100 } },
};
const QUESTIONS = { card: { type: 'box', instructions: 'the blue card' }, badge: { type: 'box', instructions: 'the small badge' } };

async function call<T>(page: Page, url: string, op: string, input: unknown): Promise<T> {
  const body = (await (await page.request.post(`${url}/api/inspector/${op}`, { headers: { 'x-verdict-client': 'renderer' }, data: input })).json()) as {
    ok: boolean;
    data: T;
    error?: unknown;
  };
  if (!body.ok) throw new Error(`${op}: ${JSON.stringify(body.error)}`);
  return body.data;
}

/** Two shelves as a dataset with a truth box per object, and a finished run of a box question per object. */
async function reviewable(page: Page, url: string): Promise<void> {
  const fraction = (r: Rect) => ({ top: r.y / SIZE.height, left: r.x / SIZE.width, bottom: (r.y + r.h) / SIZE.height, right: (r.x + r.w) / SIZE.width });
  const labels = Object.entries(SCENES)
    .map(([id, s]) => JSON.stringify({ id, expected: { card: fraction(s.card), badge: fraction(s.badge) } }))
    .join('\n');
  const images = Object.entries(SCENES).map(([name, s]) => ({ name, data_url: pngWithRects(SIZE.width, SIZE.height, [s.card, s.badge]) }));
  const imported = await call<{ dataset: { id: string } }>(page, url, 'datasets.importImages', {
    name: 'shelves',
    images,
    labels: { format: 'jsonl', content: labels },
    questions: QUESTIONS,
  });
  const run = await call<{ id: string }>(page, url, 'evals.start', {
    request: { model: 'sandbox/baseline-vision', state: '', questions: QUESTIONS },
    dataset_id: imported.dataset.id,
    variants: [{ model: 'sandbox/baseline-vision' }],
    concurrency: 2,
  });
  await expect.poll(async () => (await call<{ status: string }>(page, url, 'evals.get', { id: run.id })).status, { timeout: 30_000 }).toBe('done');
}

test("a reviewer rejects one question's answer and keeps the other accepted; Reject pressed twice stays rejected; a note stays with its verdict", async ({
  page,
  server,
}) => {
  test.setTimeout(90_000);
  const app = new AppPage(page);
  const boxes = new BoxesPage(page);
  await app.open(server.uiUrl);
  await reviewable(page, server.url);
  await app.goTo('Boxes');
  await expect(boxes.queue.getByRole('listitem')).toHaveCount(2);
  await page.getByLabel('Next image once every answer has a verdict').uncheck();
  await boxes.item('shelf-1.png').getByRole('button').click();
  // The image and its answers to review are in view at 1280 × 800 without scrolling.
  await expect(boxes.canvas).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Reject badge' })).toBeInViewport({ ratio: 1 });

  // The whole image accepted, then the badge's answer alone rejected: the card stays accepted.
  await page.getByRole('button', { name: 'Accept every answer' }).click();
  await expect(page.getByRole('button', { name: 'Accept card' })).toHaveAttribute('aria-pressed', 'true');
  const rejectBadge = page.getByRole('button', { name: 'Reject badge' });
  await rejectBadge.click();
  await expect(rejectBadge).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: 'Accept card' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('verdict-card')).toHaveText('Accepted');
  await expect(page.getByTestId('verdict-badge')).toHaveText('Rejected');
  // Pressed again it stays rejected: a verdict is set, not toggled.
  await rejectBadge.click();
  await expect(rejectBadge).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('verdict-badge')).toHaveText('Rejected');
  await expect(boxes.item('shelf-1.png')).toContainText('rejected');

  // A note on the badge's rejection; Clear takes the verdict and its note to the history, leaving no note on an unjudged answer.
  await page.locator('.answer-list li[data-question="badge"] .answer-name').click();
  const note = page.getByLabel('Note on the rejection of badge');
  await note.fill('the box covers both objects');
  await note.blur();
  // Kept with the rejection: the card's acceptance has no note, the badge's rejection has this one.
  await page.locator('.answer-list li[data-question="card"] .answer-name').click();
  await expect(page.getByLabel('Note on the acceptance of card')).toHaveValue('');
  await page.locator('.answer-list li[data-question="badge"] .answer-name').click();
  await expect(page.getByLabel('Note on the rejection of badge')).toHaveValue('the box covers both objects');
  await page.getByRole('button', { name: 'Clear badge' }).click();
  await expect(page.getByTestId('verdict-badge')).toHaveText('no verdict');
  await expect(page.getByLabel('Note', { exact: true })).toBeDisabled();
  await page.getByText('Earlier verdicts (2)').click();
  await expect(page.locator('.verdict-history')).toContainText('Rejected badge: “the box covers both objects”');
  await expect(page.getByRole('button', { name: 'Accept card' })).toHaveAttribute('aria-pressed', 'true');

  // An answer that coincides with another is drawn inside it; every tag stays apart.
  const tags = await boxes.canvas
    .locator('text.box-tag')
    .evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y, w: r.width, h: r.height })));
  for (let i = 0; i < tags.length; i += 1) {
    for (let j = i + 1; j < tags.length; j += 1) {
      const [a, b] = [tags[i]!, tags[j]!];
      expect(a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h, `tags ${i} and ${j} overlap`).toBe(false);
    }
  }
  await app.screenshot('reviewer-per-answer-light');
  await page.request.post(`${server.url}/api/inspector/settings.update`, { headers: { 'x-verdict-client': 'renderer' }, data: { theme: 'dark' } });
  await page.reload();
  await app.goTo('Boxes');
  await boxes.item('shelf-1.png').getByRole('button').click();
  await expect(page.getByTestId('verdict-card')).toHaveText('Accepted');
  await app.screenshot('reviewer-per-answer-dark');
});

test("the queue filters by the verdict on the chosen question's answer, and the image's line names the answer rejected", async ({ page, server }) => {
  test.setTimeout(90_000);
  const app = new AppPage(page);
  const boxes = new BoxesPage(page);
  await app.open(server.uiUrl);
  await reviewable(page, server.url);
  await app.goTo('Boxes');
  await expect(boxes.queue.getByRole('listitem')).toHaveCount(2);
  await page.getByLabel('Next image once every answer has a verdict').uncheck();
  // On shelf-1 the card's answer accepted and the badge's rejected; shelf-2 not judged.
  await boxes.item('shelf-1.png').getByRole('button').click();
  await page.getByRole('button', { name: 'Accept card' }).click();
  await page.getByRole('button', { name: 'Reject badge' }).click();
  await expect(page.getByTestId('verdict-badge')).toHaveText('Rejected');
  await expect(page.getByTestId('verdict-owner')).toHaveText('Rejected: badge · Accepted: card · on the answers of sandbox/baseline-vision');

  const verdict = page.getByLabel('Verdict', { exact: true });
  const question = page.getByLabel('Question', { exact: true });
  await question.selectOption('card');
  await verdict.selectOption('rejected');
  // No card answer was rejected: the image is rejected only for its badge.
  await expect(page.getByText('No image matches these filters.')).toBeVisible();
  await verdict.selectOption('accepted');
  await expect(boxes.queue.getByRole('listitem')).toHaveCount(1);
  await expect(boxes.item('shelf-1.png')).toContainText('card accepted');
  await verdict.selectOption('unreviewed');
  await expect(boxes.queue.getByRole('listitem')).toHaveCount(1);
  await expect(boxes.item('shelf-2.png')).toContainText('card not reviewed');
  await question.selectOption('badge');
  await verdict.selectOption('rejected');
  await expect(boxes.queue.getByRole('listitem')).toHaveCount(1);
  await expect(boxes.item('shelf-1.png')).toContainText('badge rejected');
  await boxes.item('shelf-1.png').getByRole('button').click();
  await app.screenshotInBothThemes('reviewer-filter-by-answer');
  // Without a question, the image's own verdict: rejected, as one of its answers is.
  await question.selectOption('');
  await expect(boxes.queue.getByRole('listitem')).toHaveCount(1);
  await expect(boxes.item('shelf-1.png')).toContainText('rejected');
});

test("label hotkeys set the next box's label, never the box just drawn; the pointer reads the image pixel it is over", async ({ page, server }) => {
  test.setTimeout(90_000);
  const app = new AppPage(page);
  const boxes = new BoxesPage(page);
  await app.open(server.uiUrl);
  await reviewable(page, server.url);
  await app.goTo('Boxes');
  await boxes.item('shelf-2.png').getByRole('button').click();
  await boxes.canvas.focus();
  // 1 is card, 2 is badge: the order of the questions.
  await page.keyboard.press('2');
  await expect(page.getByLabel('Label of the next box')).toHaveValue('badge');
  await boxes.draw(SIZE, [10, 10], [60, 60]);
  await expect(boxes.legend).toContainText('3 ground-truth boxes');
  await expect(page.getByLabel('Label of box 3')).toHaveValue('badge');
  // Choosing the next label now leaves the box just drawn (and selected) as it is.
  await page.keyboard.press('1');
  await expect(page.getByLabel('Label of the next box')).toHaveValue('card');
  await expect(page.getByLabel('Label of box 3')).toHaveValue('badge');
  await boxes.draw(SIZE, [300, 200], [380, 280]);
  await expect(page.getByLabel('Label of box 4')).toHaveValue('card');
  // A box is relabelled from its own row.
  await page.getByLabel('Label of box 4').selectOption('badge');
  await expect(page.getByLabel('Label of box 4')).toHaveValue('badge');
  await expect(page.getByLabel('Label of box 3')).toHaveValue('badge');

  // The crosshair reads the image pixel under the pointer, to the pixel, at 100 %.
  await boxes.canvas.focus();
  await page.keyboard.press('Shift+1');
  await expect(boxes.zoom).toHaveText('100%');
  const shown = (await boxes.image.boundingBox())!;
  await page.mouse.move(shown.x + 120.5, shown.y + 40.5);
  await expect(boxes.readout).toHaveText('x 120, y 40 px');
});
