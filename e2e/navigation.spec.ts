import { test, expect } from './fixtures/server';
import { AppPage, SCREEN_LABELS } from './pages/app-page';
import { SettingsPage } from './pages/settings-page';

test.describe('a first-time user opens the app', () => {
  // One server for these journeys: none writes what another reads (the theme is chosen on a server of its own, below).
  test.use({ shareServer: true });

  test('visits every screen from the navigation and sees what to do next', async ({ page, server }) => {
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    const app = new AppPage(page);
    await app.open(server.uiUrl);
    await expect(page).toHaveURL(`${server.url}/`);
    for (const label of SCREEN_LABELS) {
      await app.goTo(label);
      await expect(app.navLink(label)).toHaveAttribute('aria-current', 'page');
      await expect(page).toHaveTitle(`${label} · Verdict`);
      await app.screenshot(`screen-${label.toLowerCase().replace(/\s+/g, '-')}`);
    }
    // A fresh machine has no real provider: the simulated ones stand in, and say so.
    // One line, its explanation folded.
    await app.goTo('Endpoints');
    await expect(page.getByRole('note').filter({ hasText: 'Simulated providers are on' })).toBeVisible();
    await app.goTo('ZDR');
    await expect(page.getByRole('note').filter({ hasText: 'Simulated providers are on' })).toBeVisible();
    // Charts with their tooltips: hovering draws the tooltip inside the chart, with no inline style the CSP would refuse.
    await app.goTo('Endpoints');
    await page.getByRole('button', { name: 'Measure now' }).click();
    await expect(page.getByRole('img', { name: 'Latency percentiles by provider' })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('img', { name: 'Latency over time by provider' })).toBeVisible({ timeout: 20_000 });
    for (const name of [
      'Latency percentiles by provider',
      'Throughput percentiles by provider',
      'Uptime over time by provider',
      'Latency over time by provider',
    ]) {
      const chart = page.getByRole('img', { name });
      await chart.scrollIntoViewIfNeeded();
      const box = (await chart.boundingBox())!;
      for (let i = 1; i <= 12; i += 1) await page.mouse.move(box.x + (box.width * i) / 13, box.y + box.height * (0.3 + (i % 3) * 0.2), { steps: 3 });
      // Where to point: for a chart over time, at a point it drew for a measured minute (each is a
      // unit circle ECharts scales into place in the SVG: read from there, not guessed from the clock); bars fill the chart.
      const target = async () => {
        if (!name.includes('over time')) return { x: box.x + box.width * 0.6, y: box.y + box.height * 0.55 };
        const points = await chart.locator('svg path[transform^="matrix("][d^="M1 0A1 1 0 1 1"]').evaluateAll((paths) =>
          paths.map((p) => {
            const r = p.getBoundingClientRect();
            return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
          }),
        );
        return points.sort((a, b) => b.x - a.x)[0];
      };
      const tooltip = async () => (await chart.locator('svg text').allTextContents()).some((t) => /\d (s|tok\/s|%)/.test(t));
      await expect
        .poll(
          async () => {
            const at = await target();
            if (!at) return false;
            await page.mouse.move(at.x, at.y, { steps: 3 });
            // The chart draws its tooltip on the next frames.
            await page.evaluate(() => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn))));
            return tooltip();
          },
          { message: `${name} shows a tooltip with units` },
        )
        .toBe(true);
    }
    // No script error and nothing blocked by the Content-Security-Policy on any screen.
    expect(problems).toEqual([]);
  });

  test('moves between screens with the keyboard', async ({ page, server }) => {
    const app = new AppPage(page);
    await app.open(server.uiUrl);
    for (const [index, label] of SCREEN_LABELS.entries()) {
      await page.keyboard.press(`Alt+${index + 1}`);
      await expect(app.heading).toHaveText(label);
    }
  });

  test('screens are drawn in the fonts the tests provide, whichever Chromium runs them', async ({ page, server }) => {
    const app = new AppPage(page);
    await app.open(server.uiUrl);
    await app.goTo('Settings');
    // The faces Chromium really drew each element with (not what CSS asked for): the same with a
    // system Chromium and the one from npm, so their screenshots match (scripts/lib/chromium.mjs).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument');
    const facesOf = async (selector: string) => {
      const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
      return (await cdp.send('CSS.getPlatformFontsForNode', { nodeId })).fonts.map((f) => f.familyName);
    };
    expect(await facesOf('h1')).toEqual(['Open Sans']);
    const code = await facesOf('code');
    expect(code).toHaveLength(1);
    // Monospace where the machine has DejaVu Sans Mono (Debian's fonts-dejavu-core), else the shipped face.
    expect(['DejaVu Sans Mono', 'Open Sans']).toContain(code[0]);
  });

  test('without the printed link the browser is asked to sign in, and told of the link', async ({ page, server }) => {
    await page.goto(server.url);
    await expect(page.getByRole('heading', { name: 'Sign in to Verdict' })).toBeVisible();
    await expect(page.getByText(`${server.url}/?token=`)).toBeVisible();
    await expect(page).toHaveTitle('Sign in · Verdict');
    await new AppPage(page).screenshot('no-session');
  });
});

test.describe('a user who likes it dark', () => {
  test('switches to the dark theme and keeps it after a reload', async ({ page, server }) => {
    const app = new AppPage(page);
    const settings = new SettingsPage(page);
    await app.open(server.uiUrl);
    await app.goTo('Settings');
    await settings.chooseTheme('dark');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe('rgb(20, 23, 28)');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(settings.theme('dark')).toBeChecked();
    await app.screenshot('screen-settings-dark');
  });
});
