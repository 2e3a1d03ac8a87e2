import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';
import { BoxesPage } from './pages/boxes-page';
import { EvaluationsPage } from './pages/evaluations-page';
import { pngWithRects, type Rect } from '../electron/test-support/images';

test.use({ sandboxFailures: false });

const SIZE = { width: 400, height: 300 };
/** Three shelves, each with a card and a badge at known pixels. */
const SCENES: Record<string, { card: Rect; badge: Rect }> = {
  'shelf-1.png': { card: { x: 40, y: 40, w: 160, h: 90 }, badge: { x: 260, y: 170, w: 90, h: 90 } },
  'shelf-2.png': { card: { x: 200, y: 30, w: 150, h: 100 }, badge: { x: 30, y: 160, w: 100, h: 100 } },
  'shelf-3.png': { card: { x: 100, y: 150, w: 200, h: 100 }, badge: { x: 320, y: 20, w: 60, h: 60 } },
};
const png = (name: string) => Buffer.from(pngWithRects(SIZE.width, SIZE.height, [SCENES[name]!.card, SCENES[name]!.badge]).split(',')[1]!, 'base64');

/** The inspector's operations over HTTP, as the renderer calls them. */
function inspector(page: Page, url: string) {
  return async <T>(op: string, input: unknown): Promise<T> => {
    const response = await page.request.post(`${url}/api/inspector/${op}`, { headers: { 'x-verdict-client': 'renderer' }, data: input });
    const body = (await response.json()) as { ok: boolean; data: T; error?: unknown };
    if (!body.ok) throw new Error(`${op}: ${JSON.stringify(body.error)}`);
    return body.data;
  };
}

/** A box question per object of the scenes. */
const BOX_QUESTIONS = { card: { type: 'box', instructions: 'the blue card' }, badge: { type: 'box', instructions: 'the small badge' } };

/** The scenes as a dataset of images with a labels file: a truth box per object, as fractions of the image. */
function importScenes(call: ReturnType<typeof inspector>, name: string): Promise<{ dataset: { id: string } }> {
  const fraction = (r: Rect) => ({ top: r.y / SIZE.height, left: r.x / SIZE.width, bottom: (r.y + r.h) / SIZE.height, right: (r.x + r.w) / SIZE.width });
  const labels = Object.entries(SCENES)
    .map(([id, s]) => JSON.stringify({ id, expected: { card: fraction(s.card), badge: fraction(s.badge) } }))
    .join('\n');
  const images = Object.keys(SCENES).map((scene) => ({ name: scene, data_url: `data:image/png;base64,${png(scene).toString('base64')}` }));
  return call<{ dataset: { id: string } }>('datasets.importImages', { name, images, labels: { format: 'jsonl', content: labels }, questions: BOX_QUESTIONS });
}

/**
 * The sandbox's vision baseline boxes every foreground pixel, so each question's answer is the box
 * around both objects: its IoU with one object is that object's area over the enclosing box's area.
 */
function expectedIou(name: string, object: 'card' | 'badge'): number {
  const { card, badge } = SCENES[name]!;
  const w = Math.max(card.x + card.w, badge.x + badge.w) - Math.min(card.x, badge.x);
  const h = Math.max(card.y + card.h, badge.y + badge.h) - Math.min(card.y, badge.y);
  const r = SCENES[name]![object];
  return (r.w * r.h) / (w * h);
}

/** Truth for shelves 2 and 3 as a COCO file another tool would give (pixel [x, y, width, height]). */
function cocoTruth(): string {
  const names = ['shelf-2.png', 'shelf-3.png'];
  const box = (r: Rect) => [r.x, r.y, r.w, r.h];
  return JSON.stringify({
    images: names.map((file_name, i) => ({ id: i + 10, file_name, ...SIZE })),
    categories: [
      { id: 3, name: 'card' },
      { id: 4, name: 'badge' },
    ],
    annotations: names.flatMap((n, i) => [
      { id: 2 * i + 1, image_id: i + 10, category_id: 3, bbox: box(SCENES[n]!.card), iscrowd: 0 },
      { id: 2 * i + 2, image_id: i + 10, category_id: 4, bbox: box(SCENES[n]!.badge), iscrowd: 0 },
    ]),
  });
}

test('a reviewer labels truth per object, zooms, undoes, runs a box question per object, reviews by keyboard and exports COCO', async ({ page, server }) => {
  test.setTimeout(90_000);
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  const app = new AppPage(page);
  const boxes = new BoxesPage(page);
  await app.open(server.uiUrl);
  await app.goTo('Boxes');
  const folder = mkdtempSync(join(tmpdir(), 'verdict-shelves-'));
  for (const name of Object.keys(SCENES)) writeFileSync(join(folder, name), png(name));
  // The files are read a few at a time as they are added: the folder stays until the end.
  await boxes.addFolder(folder);
  await expect(boxes.queue.getByRole('listitem')).toHaveCount(3);

  // One box question per object: its name labels the truth boxes.
  await boxes.question(1, 'card', 'the blue card');
  await page.getByRole('button', { name: 'Add a box question' }).click();
  await boxes.question(2, 'badge', 'the small badge');

  // Labelled truth on shelf 1, drawn with the mouse.
  await boxes.item('shelf-1.png').getByRole('button').click();
  await expect(boxes.readout).toHaveText('400 × 300 px');
  await page.getByLabel('Label of the next box').selectOption('card');
  const { card, badge } = SCENES['shelf-1.png']!;
  await boxes.draw(SIZE, [card.x, card.y], [card.x + card.w, card.y + card.h]);
  await page.keyboard.press('Escape');
  await page.getByLabel('Label of the next box').selectOption('badge');
  await boxes.draw(SIZE, [badge.x, badge.y], [badge.x + badge.w, badge.y + badge.h]);
  await expect(boxes.legend).toContainText('2 ground-truth boxes');
  await expect(boxes.canvas.locator('text', { hasText: 'badge' })).toHaveCount(1);

  // Zoom in with the keyboard; the crosshair still reads image pixels; pan with arrows; fit again.
  await boxes.canvas.focus();
  await page.keyboard.press('Escape');
  const fitted = await boxes.zoomPercent();
  for (let i = 0; i < 3; i += 1) await page.keyboard.press('+');
  expect(await boxes.zoomPercent()).toBeCloseTo(fitted * 1.25 ** 3, -1);
  await page.keyboard.press('ArrowLeft');
  const shown = (await boxes.image.boundingBox())!;
  await page.mouse.move(shown.x + (250 / SIZE.width) * shown.width, shown.y + (100 / SIZE.height) * shown.height);
  await expect(boxes.readout).toHaveText(/^x (249|250), y (99|100) px$/);
  await page.keyboard.press('0');
  expect(await boxes.zoomPercent()).toBe(fitted);
  // The wheel zooms the image about the pointer, and the page itself does not scroll.
  const scrolled = await page.evaluate(() => window.scrollY);
  await page.mouse.wheel(0, -300);
  await expect.poll(() => boxes.zoomPercent()).toBeGreaterThan(fitted);
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
  await page.keyboard.press('0');

  // A stray box, undone and redone and undone again.
  await page.keyboard.press('n');
  await expect(boxes.legend).toContainText('3 ground-truth boxes');
  await page.keyboard.press('Control+z');
  await expect(boxes.legend).toContainText('2 ground-truth boxes');
  await page.keyboard.press('Control+Shift+z');
  await expect(boxes.legend).toContainText('3 ground-truth boxes');
  await page.keyboard.press('Control+y');
  await page.keyboard.press('Control+z');
  await expect(boxes.legend).toContainText('2 ground-truth boxes');

  // Truth for the other shelves from another tool's COCO file.
  await boxes.importTruth([{ name: 'instances.json', text: cocoTruth() }]);
  await expect(page.getByTestId('truth-imported')).toHaveText('Truth for 2 images imported.');

  // Both questions over the folder, as an evaluation run over its dataset: an estimate first, then the run.
  await expect(boxes.dataset).toContainText(/verdict-shelves-.* \(3 images\)/);
  await page.getByLabel('Model').fill('sandbox/baseline-vision');
  await page.getByRole('button', { name: 'Estimate' }).click();
  await expect(page.getByTestId('box-estimate')).toContainText('3 calls');
  // Two figures, each named: what the run is expected to cost, and the most it can.
  await expect(page.getByTestId('box-estimate')).toContainText(/expected cost \$[\d.]+ · worst case \$[\d.]+/);
  // An estimate is for the model it was made for: naming another hides it, naming it again shows it.
  await page.getByLabel('Model').fill('sandbox/baseline-text');
  await expect(page.getByTestId('box-estimate')).toBeHidden();
  await page.getByLabel('Model').fill('sandbox/baseline-vision');
  await expect(page.getByTestId('box-estimate')).toContainText('3 calls');
  // A double click starts one run, even when the start has answered before the second click comes.
  // That second click is the double click's (the browser counts it 2 in `detail`); a click of
  // Playwright's own after the answer would be a click of its own once more than the double-click
  // interval has gone by, as it can on a busy machine.
  const starts: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/inspector/evals.start')) starts.push(r.url());
  });
  const runOver = page.getByRole('button', { name: 'Run over the dataset' });
  const answered = page.waitForResponse('**/api/inspector/evals.start');
  await runOver.click();
  await answered;
  await runOver.dispatchEvent('click', { detail: 2 });
  await expect(boxes.queue.getByText(/IoU \d/)).toHaveCount(3, { timeout: 30_000 });
  expect(starts).toHaveLength(1);
  await expect(page.getByTestId('box-run-progress')).toContainText('done: 3 of 3 done', { timeout: 30_000 });
  // A finished run shows its estimate against what it cost.
  await expect(page.getByTestId('box-run-cost')).toContainText(
    /Estimate at the start: expected \$[\d.]+ \(likely \$[\d.]+ – \$[\d.]+\) · worst case \$[\d.]+ · Actual: \$[\d.]+, (as expected|[+−][\d.]+% against the expected cost), (inside|outside) the likely range/,
  );
  await expect(page.getByTestId('box-run-metrics')).toContainText(/card: mean IoU 0\.\d{3}, pass rate \d+ %/);
  await boxes.item('shelf-1.png').getByRole('button').click();
  for (const object of ['card', 'badge'] as const) {
    const text = (await page.getByTestId(`iou-${object}`).textContent())!;
    expect(Number(text.split(' ')[1])).toBeCloseTo(expectedIou('shelf-1.png', object), 1);
  }
  await expect(boxes.canvas).toContainText('card · IoU');
  await app.screenshot('boxes-workbench');

  // Review by keyboard only, each image as a whole (Shift: A and R alone judge the answer under review):
  // reject, accept, back, forward, reject; each verdict moves on.
  await boxes.canvas.focus();
  await page.keyboard.press('Shift+R');
  await expect(page.getByRole('heading', { name: 'shelf-2.png' })).toBeVisible();
  await page.keyboard.press('Shift+A');
  await expect(page.getByRole('heading', { name: 'shelf-3.png' })).toBeVisible();
  await page.keyboard.press('k');
  await expect(page.getByRole('heading', { name: 'shelf-2.png' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Accept every answer' })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('j');
  await page.keyboard.press('Shift+R');
  await expect(boxes.item('shelf-1.png')).toContainText('rejected');
  await expect(boxes.item('shelf-2.png')).toContainText('accepted');
  await expect(boxes.item('shelf-3.png')).toContainText('rejected');

  // The queue by verdict, question and IoU, and a filter that matches nothing says so.
  await page.getByLabel('Verdict', { exact: true }).selectOption('rejected');
  await expect(boxes.queue.getByRole('listitem')).toHaveCount(2);
  await page.getByLabel('Verdict', { exact: true }).selectOption('any');
  await page.getByLabel('Question', { exact: true }).selectOption('badge');
  await page.getByLabel('IoU at least').fill('0.9');
  await expect(page.getByText('No image matches these filters.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(boxes.queue.getByRole('listitem')).toHaveCount(3);

  // Another run over the dataset gives the same boxes: each verdict is kept but marked re-run since,
  // with the answer unchanged, so the reviewer can confirm it at once.
  await page.getByRole('button', { name: 'Run over the dataset' }).click();
  await expect(page.getByLabel('Answers of').locator('option')).toHaveCount(3);
  await expect(page.getByTestId('box-run-progress')).toContainText('done: 3 of 3 done', { timeout: 30_000 });
  await expect(boxes.item('shelf-2.png')).toContainText('accepted');
  await expect(boxes.queue.getByTestId('queue-stale')).toHaveText(['re-run: answer unchanged', 're-run: answer unchanged', 're-run: answer unchanged']);

  // COCO: truth with image sizes and one category per question, answers with their IoU beside it.
  await page.getByLabel('Export format').selectOption('coco');
  const downloads: Promise<import('@playwright/test').Download>[] = [];
  page.on('download', (d) => downloads.push(Promise.resolve(d)));
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  // One file, named after the dataset: a zip of the COCO dataset and its answers.
  await expect.poll(() => downloads.length).toBe(1);
  const zip = await downloads[0]!;
  const datasetName = (await boxes.dataset.locator('option:checked').textContent())!.replace(/ \(\d+ images?\)$/, '');
  expect(zip.suggestedFilename()).toBe(`${datasetName}-${new Date().toISOString().slice(0, 10)}.coco.zip`);
  const files = Object.entries(unzipSync(readFileSync((await zip.path())!))).map(([name, data]) => ({ name, text: strFromU8(data) }));
  const dataset = JSON.parse(files.find((f) => f.name.endsWith('.coco.json'))!.text) as {
    images: { id: number; file_name: string; width: number; height: number }[];
    categories: { id: number; name: string }[];
    annotations: { image_id: number; category_id: number; bbox: number[] }[];
  };
  const answers = JSON.parse(files.find((f) => f.name.endsWith('.coco-answers.json'))!.text) as { image_id: number; category_id: number; iou: number }[];
  expect(dataset.categories.map((c) => c.name).sort()).toEqual(['badge', 'card']);
  expect(dataset.images.map((i) => [i.file_name, i.width, i.height]).sort()).toEqual(Object.keys(SCENES).map((n) => [n, 400, 300]));
  const idOf = (file: string) => dataset.images.find((i) => i.file_name === file)!.id;
  const cat = (name: string) => dataset.categories.find((c) => c.name === name)!.id;
  const shelf2Card = dataset.annotations.find((a) => a.image_id === idOf('shelf-2.png') && a.category_id === cat('card'))!;
  const { x, y, w, h } = SCENES['shelf-2.png']!.card;
  shelf2Card.bbox.forEach((v, i) => expect(Math.abs(v - [x, y, w, h][i]!)).toBeLessThanOrEqual(1));
  const shelf3Badge = answers.find((a) => a.image_id === idOf('shelf-3.png') && a.category_id === cat('badge'))!;
  expect(shelf3Badge.iou).toBeCloseTo(expectedIou('shelf-3.png', 'badge'), 2);
  expect(answers).toHaveLength(6);

  // The images are dataset items, each labelled box the expected answer of its question.
  const listed = await page.request.post(`${server.url}/api/inspector/datasets.list`, { headers: { 'x-verdict-client': 'renderer' }, data: {} });
  const saved = ((await listed.json()) as { data: { name: string; labelled: Record<string, number> }[] }).data;
  expect(saved).toEqual([expect.objectContaining({ name: expect.stringMatching(/^verdict-shelves-/), labelled: { card: 3, badge: 3 } })]);

  // The same screen in the dark theme.
  await page.request.post(`${server.url}/api/inspector/settings.update`, { headers: { 'x-verdict-client': 'renderer' }, data: { theme: 'dark' } });
  await page.reload();
  await app.goTo('Boxes');
  await boxes.item('shelf-1.png').getByRole('button').click();
  await expect(boxes.canvas).toContainText('card · IoU');
  await app.screenshot('boxes-workbench-dark');
  expect(problems).toEqual([]);
  rmSync(folder, { recursive: true, force: true });
});

test("a reviewer checks an evaluation's box answers over a dataset of images, item by item", async ({ page, server }) => {
  test.setTimeout(90_000);
  const workers: string[] = [];
  page.on('worker', (w) => workers.push(w.url()));
  const app = new AppPage(page);
  const boxes = new BoxesPage(page);
  await app.open(server.uiUrl);
  const call = inspector(page, server.url);
  // A folder of images with a labels file becomes a dataset; a box question per object is evaluated over it.
  const questions = BOX_QUESTIONS;
  const imported = await importScenes(call, 'shelves');
  const run = await call<{ id: string }>('evals.start', {
    request: { model: 'sandbox/baseline-vision', state: '', questions },
    dataset_id: imported.dataset.id,
    variants: [{ model: 'sandbox/baseline-vision' }],
    concurrency: 2,
  });
  await expect.poll(async () => (await call<{ status: string }>('evals.get', { id: run.id })).status, { timeout: 30_000 }).toBe('done');

  // Boxes opens that dataset (the newest with images) on the newest run's answers.
  await app.goTo('Boxes');
  await expect(boxes.dataset).toContainText('shelves (3 images)');
  await expect(boxes.queue.getByRole('listitem')).toHaveCount(3);
  await boxes.item('shelf-3.png').getByRole('button').click();
  await expect(page.getByTestId('judged-model')).toHaveText('Judging the answers of sandbox/baseline-vision');
  for (const object of ['card', 'badge'] as const) {
    const text = (await page.getByTestId(`iou-${object}`).textContent())!;
    expect(Number(text.split(' ')[1])).toBeCloseTo(expectedIou('shelf-3.png', object), 2);
  }
  await expect(boxes.legend).toContainText('2 ground-truth boxes');
  await boxes.canvas.focus();
  await page.keyboard.press('r');
  await expect(boxes.item('shelf-3.png')).toContainText('rejected');
  // Thumbnails are made in a worker and kept in IndexedDB across sessions.
  await expect(boxes.queue.getByTestId('box-thumb')).toHaveCount(3);
  expect(workers.some((url) => url.includes('thumbnail-worker'))).toBe(true);
  const kept = () =>
    page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const open = indexedDB.open('verdict-thumbnails');
          open.onsuccess = () => {
            const count = open.result.transaction('thumbnails').objectStore('thumbnails').count();
            count.onsuccess = () => resolve(count.result);
          };
        }),
    );
  await expect.poll(kept).toBe(3);

  // The verdict is kept with the dataset item, and the run's metrics are the Evaluations screen's.
  const fetched: string[] = [];
  page.on('request', (r) => r.url().endsWith('/boxReview.image') && fetched.push(r.postData() ?? ''));
  await page.reload();
  await app.goTo('Boxes');
  await expect(boxes.item('shelf-3.png')).toContainText('rejected');
  // After the reload the queue's thumbnails come from the cache: only the editor's image is fetched.
  await expect(boxes.queue.getByTestId('box-thumb')).toHaveCount(3);
  expect(fetched).toHaveLength(1);
  await expect(page.getByTestId('box-run-metrics')).toContainText('badge: mean IoU');
  const report = await call<{ models: { questions: Record<string, { mean_iou: number }> }[] }>('evals.report', { id: run.id });
  await expect(page.getByTestId('box-run-metrics')).toContainText(`card: mean IoU ${report.models[0]!.questions['card']!.mean_iou.toFixed(3)}`);

  // The same run in Evaluations: box cells give their IoU and name their edges; no filter or column
  // that box answers cannot fill (they carry no confidence and have no majority class).
  const evals = new EvaluationsPage(page);
  await app.goTo('Evaluations');
  await evals.open('Runs');
  await expect(
    evals.results
      .getByRole('gridcell')
      .filter({ hasText: /^IoU \d\.\d\d · t \d\.\d\d l \d\.\d\d b \d\.\d\d r \d\.\d\d/ })
      .first(),
  ).toBeVisible();
  await expect(evals.filter('Wrong')).toBeVisible();
  await expect(page.getByRole('group', { name: 'Show items' }).getByRole('button', { name: /^Low confidence/ })).toHaveCount(0);
  await expect(evals.metrics.getByRole('columnheader', { name: 'Majority baseline' })).toHaveCount(0);
  await evals.results.scrollIntoViewIfNeeded();
  await app.screenshotInBothThemes('box-run-in-evaluations');
});

test('images added to Boxes before it kept datasets are still there, and copy into a dataset with their verdicts', async ({ page, server }) => {
  const app = new AppPage(page);
  const boxes = new BoxesPage(page);
  await app.open(server.uiUrl);
  const call = inspector(page, server.url);
  const { card } = SCENES['shelf-1.png']!;
  const old = await call<{ id: string }>('boxes.add', { name: 'shelf-1.png', data_url: `data:image/png;base64,${png('shelf-1.png').toString('base64')}` });
  await call('boxes.update', {
    id: old.id,
    truth: [{ label: 'card', top: card.y / 300, left: card.x / 400, bottom: (card.y + card.h) / 300, right: (card.x + card.w) / 400 }],
    verdict: 'accepted',
    note: 'checked by hand',
  });
  await app.goTo('Boxes');
  await expect(boxes.dataset).toContainText('Images added before datasets (1)');
  await expect(boxes.item('shelf-1.png')).toContainText('accepted');
  await page.getByRole('button', { name: 'Copy into a dataset' }).click();
  await expect(boxes.dataset).toContainText(/Box review .* \(1 image\)/);
  await expect(boxes.legend).toContainText('1 ground-truth box');
  await expect(page.getByLabel('Note')).toHaveValue('checked by hand');
  await expect(page.getByRole('button', { name: 'Accept every answer' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('verdict-owner')).toHaveText('Accepted · on the answer of model unknown');
  await expect(boxes.item('shelf-1.png')).toContainText('accepted (model unknown)');

  // Evaluations' "Save box reviews as a dataset" makes the same copy, verdicts and notes included.
  await app.goTo('Evaluations');
  await page.getByText('Save existing work as a dataset').click();
  await page.getByRole('button', { name: 'Save box reviews as a dataset' }).click();
  await app.goTo('Boxes');
  await boxes.dataset.selectOption({ label: 'Box reviews (1 image)' });
  await expect(boxes.legend).toContainText('1 ground-truth box');
  await expect(page.getByLabel('Note')).toHaveValue('checked by hand');
  await expect(page.getByRole('button', { name: 'Accept every answer' })).toHaveAttribute('aria-pressed', 'true');
});

test('a reviewer judges each model of a run apart, runs one image again and sees the verdict marked stale', async ({ page, server }) => {
  test.setTimeout(90_000);
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  const app = new AppPage(page);
  const boxes = new BoxesPage(page);
  await app.open(server.uiUrl);
  const call = inspector(page, server.url);
  const questions = BOX_QUESTIONS;
  const imported = await importScenes(call, 'two models');
  // One run, two models: the vision baseline anywhere, and the same model held to one provider.
  const variants = [{ model: 'sandbox/baseline-vision' }, { model: 'sandbox/baseline-vision', label: 'steady only', provider: { only: ['sandbox-steady'] } }];
  const run = await call<{ id: string }>('evals.start', {
    name: 'Two models',
    request: { model: 'sandbox/baseline-vision', state: '', questions },
    dataset_id: imported.dataset.id,
    variants,
    concurrency: 2,
  });
  await expect.poll(async () => (await call<{ status: string }>('evals.get', { id: run.id })).status, { timeout: 30_000 }).toBe('done');

  await app.goTo('Boxes');
  await expect(boxes.dataset).toContainText('two models (3 images)');
  const queueModel = page.getByRole('combobox', { name: 'Judged model' });
  const reviewModel = page.getByRole('combobox', { name: 'Judging the answers of' });
  await expect(queueModel).toHaveValue('0');
  await expect(queueModel.getByRole('option')).toHaveText(['sandbox/baseline-vision', 'sandbox/baseline-vision (steady only)']);
  await page.getByLabel('Next image once every answer has a verdict').uncheck();
  await boxes.item('shelf-2.png').getByRole('button').click();
  const accept = page.getByRole('button', { name: 'Accept every answer' });
  // Keyboard only: accept the first model's answers (Shift: the whole image).
  await boxes.canvas.focus();
  await page.keyboard.press('Shift+A');
  await expect(accept).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('verdict-owner')).toHaveText('Accepted · on the answer of sandbox/baseline-vision');
  await expect(boxes.item('shelf-2.png')).toContainText('accepted');
  // The other model's answer to the same image is not judged yet; switching back shows the verdict again.
  await reviewModel.selectOption({ label: 'sandbox/baseline-vision (steady only)' });
  await expect(queueModel).toHaveValue('1');
  await expect(accept).toHaveAttribute('aria-pressed', 'false');
  await expect(boxes.item('shelf-2.png')).not.toContainText('accepted');
  await queueModel.selectOption({ label: 'sandbox/baseline-vision' });
  await expect(reviewModel).toHaveValue('0');
  await expect(accept).toHaveAttribute('aria-pressed', 'true');

  // Run on this image (G): only this item is sent again, to the model under review.
  const sent: string[] = [];
  page.on('request', (r) => r.url().endsWith('/boxReview.runImage') && sent.push(r.postData() ?? ''));
  await boxes.canvas.focus();
  await page.keyboard.press('g');
  await expect(boxes.item('shelf-2.png').getByTestId('queue-stale')).toHaveText('re-run: answer unchanged', { timeout: 20_000 });
  await expect(boxes.item('shelf-2.png').getByTestId('queue-stale')).toHaveAttribute('title', 'Stale verdict: re-run since verdict (answer unchanged)');
  await expect(boxes.item('shelf-2.png')).toContainText('accepted');
  await expect(page.getByTestId('stale-verdict')).toContainText('Re-run since verdict (answer unchanged)');
  await expect(page.getByTestId('stale-pill')).toHaveText('Verdict stale: re-run since verdict (answer unchanged)');
  expect(sent).toHaveLength(1);
  expect(JSON.parse(sent[0]!)).toMatchObject({ position: 1, run_id: run.id, variants: [0] });
  // Only that item's answer of that model was replaced; the others and the other model keep theirs.
  const results = await call<{ total: number; rows: unknown[] }>('evals.results', { id: run.id, offset: 0, limit: 10 });
  expect(results.total).toBe(3);
  await expect(boxes.queue.getByTestId('queue-stale')).toHaveCount(1);
  await app.screenshot('boxes-rerun-stale-light');
  await page.request.post(`${server.url}/api/inspector/settings.update`, { headers: { 'x-verdict-client': 'renderer' }, data: { theme: 'dark' } });
  await page.reload();
  await app.goTo('Boxes');
  await boxes.item('shelf-2.png').getByRole('button').click();
  await expect(page.getByTestId('stale-verdict')).toContainText('Re-run since verdict (answer unchanged)');
  await app.screenshot('boxes-rerun-stale-dark');
  // Confirming (Shift+A) on the new answers makes the verdict current.
  await page.getByLabel('Next image once every answer has a verdict').uncheck();
  await boxes.canvas.focus();
  await page.keyboard.press('Shift+A');
  await expect(page.getByTestId('stale-verdict')).toHaveCount(0);
  await expect(page.getByTestId('stale-pill')).toHaveCount(0);
  await expect(boxes.item('shelf-2.png')).toContainText('accepted');
  await expect(boxes.item('shelf-2.png')).not.toContainText('re-run');
  expect(problems).toEqual([]);
});
