import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';
import { BoxesPage } from './pages/boxes-page';
import { pngWithRect } from '../electron/test-support/images';

/**
 * The Boxes screen at scale: a 5,000-image folder to its first screen of thumbnails (target ≤ 2 s),
 * and frame times while the pointer draws over a 6000 × 4000 image (target: no frame above
 * 16.7 ms). Measurements, not gates: the figures are printed and attached to the test. Skipped
 * unless VERDICT_UI_BENCH is set, because they depend on whatever else the machine is doing.
 */
test.skip(!process.env['VERDICT_UI_BENCH'], 'a measurement run on demand: set VERDICT_UI_BENCH=1');
test.use({ sandboxFailures: false });

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

test('a 5,000-image folder opens to its first screen of thumbnails', async ({ page, server }) => {
  test.setTimeout(600_000);
  const folder = mkdtempSync(join(tmpdir(), 'verdict-5000-'));
  try {
    for (let i = 0; i < 5000; i += 1)
      writeFileSync(
        join(folder, `img-${String(i).padStart(4, '0')}.png`),
        Buffer.from(pngWithRect(160, 120, { x: i % 100, y: i % 60, w: 40, h: 30 }).split(',')[1]!, 'base64'),
      );
    const app = new AppPage(page);
    const boxes = new BoxesPage(page);
    await app.open(server.uiUrl);
    await app.goTo('Boxes');
    // Timed in the page from the input's change event (when a person's folder dialog closes), so the
    // test's own transfer of 5,000 files into the browser is not counted.
    await page
      .locator('label.file-button', { hasText: 'Add a folder' })
      .locator('input')
      .evaluate((input) => input.addEventListener('change', () => ((window as unknown as { picked: number }).picked = performance.now()), { capture: true }));
    const started = Date.now();
    await boxes.addFolder(folder);
    const firstScreen = await page.waitForFunction(
      () => {
        const thumbs = [...document.querySelectorAll<HTMLImageElement>('[data-testid="box-thumb"]')].filter((t) => t.complete && t.naturalWidth > 0);
        return thumbs.length >= 8 ? performance.now() - (window as unknown as { picked: number }).picked : null;
      },
      undefined,
      { timeout: 120_000, polling: 'raf' },
    );
    const transfer = Date.now() - started;
    const firstScreenMs = Math.round((await firstScreen.jsonValue()) ?? NaN);
    await expect(page.getByText('Adding images')).toHaveCount(0, { timeout: 600_000 });
    const all = Date.now() - started;
    await expect(page.getByText('5000 of 5000 images')).toBeVisible();
    // The page's JavaScript heap after a garbage collection, with the first screen and with all 5,000 listed.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const heap = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      const { metrics } = await cdp.send('Performance.getMetrics');
      return metrics.find((m) => m.name === 'JSHeapUsedSize')!.value / 2 ** 20;
    };
    const listed = await heap();
    await page.reload();
    await app.goTo('Boxes');
    await expect(page.getByTestId('box-thumb').nth(7)).toBeVisible({ timeout: 60_000 });
    const reopened = await heap();
    const figures = `first screen of thumbnails ${firstScreenMs} ms after the folder was picked (target ≤ 2000 ms; ${transfer} ms including the test handing 5,000 files to the browser); all 5,000 added ${all} ms; JS heap ${listed.toFixed(1)} MB after adding them, ${reopened.toFixed(1)} MB after reopening the screen on them`;
    test.info().annotations.push({ type: 'measure', description: figures });
    process.stdout.write(`boxes bench: ${figures}\n`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('drawing on a 6000 × 4000 image keeps up with the pointer', async ({ page, server }) => {
  test.setTimeout(300_000);
  const app = new AppPage(page);
  const boxes = new BoxesPage(page);
  await app.open(server.uiUrl);
  await app.goTo('Boxes');
  const big = Buffer.from(pngWithRect(6000, 4000, { x: 1200, y: 900, w: 2400, h: 1500 }).split(',')[1]!, 'base64');
  await page
    .locator('label.file-button', { hasText: 'Add images' })
    .locator('input')
    .setInputFiles([{ name: 'big.png', mimeType: 'image/png', buffer: big }]);
  await expect(boxes.readout).toHaveText('6000 × 4000 px', { timeout: 60_000 });
  await boxes.canvas.scrollIntoViewIfNeeded();
  await boxes.canvas.focus();
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  const area = (await boxes.canvas.boundingBox())!;
  await page.evaluate(() => {
    const w = window as unknown as { frames: number[] };
    w.frames = [];
    let last = performance.now();
    const tick = (now: number) => {
      w.frames.push(now - last);
      last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.mouse.move(area.x + 40, area.y + 40);
  await page.mouse.down();
  for (let i = 1; i <= 240; i += 1) await page.mouse.move(area.x + 40 + (i / 240) * (area.width - 80), area.y + 40 + (i / 240) * (area.height - 80));
  await page.mouse.up();
  const frames = (await page.evaluate(() => (window as unknown as { frames: number[] }).frames)).slice(2).sort((a, b) => a - b);
  const figures = `${frames.length} frames while drawing: p50 ${quantile(frames, 0.5).toFixed(1)} ms, p95 ${quantile(frames, 0.95).toFixed(1)} ms, longest ${frames.at(-1)!.toFixed(1)} ms (target ≤ 16.7 ms)`;
  test.info().annotations.push({ type: 'measure', description: figures });
  process.stdout.write(`boxes bench: ${figures}\n`);
  await expect(boxes.legend).toContainText('1 ground-truth box');
});
