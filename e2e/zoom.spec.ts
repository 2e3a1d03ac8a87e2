import type { Page } from '@playwright/test';
import { pngWithRects } from '../electron/test-support/images';
import { inspector, sampleRun } from './fixtures/inspector';
import { inspectorCalls } from './fixtures/network';
import { test, expect } from './fixtures/server';
import { AppPage, SCREEN_LABELS } from './pages/app-page';

/**
 * At 1024 pixels wide, and at 200% zoom (a 1280 × 800 window shows 640 × 400 CSS pixels), every
 * control of every screen can still be reached with Tab and is in view when it is: scrolled into
 * the window, not clipped away, not under the sticky action bar.
 */
test.use({ sandboxFailures: false });

const SIZES = [
  { name: '1024 pixels wide', viewport: { width: 1024, height: 768 }, scale: 1 },
  { name: '200% zoom', viewport: { width: 640, height: 400 }, scale: 2 },
] as const;

/** Where the focused control is: whether it is in the window and what is drawn at its middle. */
function focusedInView(): { what: string; inWindow: boolean; onTop: boolean } | null {
  const el = document.activeElement as HTMLElement | null;
  if (!el || el === document.body) return null;
  const r = el.getBoundingClientRect();
  const name = el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent ?? '';
  const what = `${el.tagName.toLowerCase()} “${name.trim().slice(0, 40)}”`;
  // A file input fills its label invisibly: the label is what is seen.
  const shown = el.matches('.file-button input') ? el.parentElement! : el;
  const box = shown.getBoundingClientRect();
  const x = Math.min(Math.max(box.left + box.width / 2, 0), window.innerWidth - 1);
  const y = Math.min(Math.max(box.top + box.height / 2, 0), window.innerHeight - 1);
  const hit = document.elementFromPoint(x, y);
  const inWindow = r.bottom > 0 && r.right > 0 && r.top < window.innerHeight && r.left < window.innerWidth;
  return { what, inWindow, onTop: hit !== null && (shown.contains(hit) || hit.contains(shown)) };
}

/** Tabs through the screen from its heading to the end, and lists the stops not fully usable. */
async function walk(page: Page, max = 250): Promise<{ stops: number; lost: string[] }> {
  const lost: string[] = [];
  let stops = 0;
  await page.locator('main h1').focus();
  await page.evaluate(() => document.querySelector('[data-walk-start]')?.removeAttribute('data-walk-start'));
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    const at = await page.evaluate(focusedInView);
    if (at === null) break;
    // Past the screen's end, Tab comes round to the sidebar: the walk is over.
    if (await page.evaluate(() => document.activeElement?.closest('nav[aria-label="Screens"]') !== null)) break;
    // Round again to the first stop: the walk is over.
    const again = await page.evaluate(() => {
      const el = document.activeElement!;
      if (el.hasAttribute('data-walk-start')) return true;
      if (!document.querySelector('[data-walk-start]')) el.setAttribute('data-walk-start', '');
      return false;
    });
    if (again) break;
    stops += 1;
    if (!at.inWindow || !at.onTop) lost.push(`${at.what}${at.inWindow ? ' is covered' : ' is out of the window'}`);
  }
  return { stops, lost };
}

for (const size of SIZES) {
  test(`every control of every screen can be reached at ${size.name}`, async ({ browser, server }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext({ viewport: size.viewport, deviceScaleFactor: size.scale });
    const page = await context.newPage();
    const app = new AppPage(page);
    const calls = inspectorCalls(page);
    await app.open(server.uiUrl);
    const call = inspector(page, server.url);
    await sampleRun(call, ['sandbox/baseline-text']);
    const image = pngWithRects(400, 300, [{ x: 40, y: 40, w: 100, h: 80 }]);
    await call('datasets.importImages', {
      name: 'images',
      images: [{ name: 'img01.png', data_url: image }],
      questions: { box: { type: 'box', instructions: 'the dark rectangle' } },
    });
    // A capture rule, so that the Monitor shows what it watches with every control.
    await call('captures.create', { name: 'everything' });
    await page.reload();
    for (const label of SCREEN_LABELS) {
      await app.navLink(label).press('Enter');
      await expect(app.heading).toHaveText(label);
      if (label === 'Question sets') await page.getByRole('button', { name: /^Support triage \(sample\)/ }).press('Enter');
      await calls.quiet();
      const { stops, lost } = await walk(page);
      expect(lost, `${label} at ${size.name}`).toEqual([]);
      // Every screen has controls of its own: a walk that stopped at once checked nothing.
      expect(stops, `stops on ${label}`).toBeGreaterThan(3);
      await app.screenshot(`zoom-${label.toLowerCase().replace(/\s+/g, '-')}-${size.viewport.width}`);
    }
    await context.close();
  });
}
