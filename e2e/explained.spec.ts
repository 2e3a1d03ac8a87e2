import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { OwnServer, test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';
import { EndpointsPage } from './pages/endpoints-page';
import { QuestionSetsPage } from './pages/question-sets-page';

test.use({ sandboxFailures: false });

async function composeSet(page: Page, name: string, preferences?: string): Promise<QuestionSetsPage> {
  const sets = new QuestionSetsPage(page);
  // A new set is offered the first model once the list arrives; filling the field while it arrives
  // can put the offer between the fill's select-all and its typing, and the two run together.
  await expect(sets.model).not.toHaveValue('');
  await sets.name.fill(name);
  await sets.model.fill('sandbox/baseline-text');
  await sets.state.fill('The parcel arrived two days late and the box was damaged.');
  await sets.fillQuestion('q1', { name: 'late', instructions: 'Did the parcel arrive late?' });
  await sets.addQuestion();
  const severity = await sets.fillQuestion('q2', { name: 'severity', type: 'score', instructions: 'How severe is the problem?' });
  await severity.getByLabel('Level 0', { exact: true }).fill('no problem');
  await severity.getByLabel('Level 1', { exact: true }).fill('damaged parcel');
  if (preferences) {
    // The preferences are folded under their heading until opened.
    await page.getByText('Provider preferences', { exact: true }).click();
    await page.getByLabel('Provider preferences JSON').fill(preferences);
  }
  await expect(sets.validity).toHaveText('valid request');
  return sets;
}

/** Run answers in place, beside the set; its run is opened in Runs from there. */
async function runHere(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.getByRole('link', { name: 'Open in Runs', exact: true }).click();
}

/**
 * Waits for the opened run to end, then checks it ended answered: a run that failed or was not
 * found says so, with what the screen showed, instead of timing out on a missing "done".
 */
async function expectRunDone(page: Page, label: string): Promise<void> {
  const ended = page.getByRole('heading', { name: new RegExp(`^Run “${label}” · (done|failed|cancelled)$`) }).or(page.getByText('Run not found'));
  await expect(ended.first(), `the run of “${label}” ends`).toBeVisible({ timeout: 30_000 });
  const screen = await page.locator('body').innerText();
  expect(await ended.first().innerText(), `the screen when the run of “${label}” ended:\n${screen.slice(0, 3000)}`).toBe(`Run “${label}” · done`);
}

test('compare shows distributions, usage and run identity side by side, and exports CSV', async ({ page, server }) => {
  const app = new AppPage(page);
  await app.open(server.uiUrl);
  await app.goTo('Question sets');
  await composeSet(page, 'Triage');
  await new QuestionSetsPage(page).alsoRunOn(['sandbox/baseline-vision']);
  await page.getByRole('button', { name: 'Run on 2 models' }).click();
  await page.getByRole('link', { name: 'Compare in Runs', exact: true }).click();
  await expect(page).toHaveURL(/compare=/);
  const compared = page.getByRole('table', { name: 'Compared runs' });
  await expect(compared.getByRole('row', { name: /^latency/ })).toContainText(' s', { timeout: 15_000 });
  await expect(compared.getByRole('row', { name: /^cost/ })).toContainText('$');
  await expect(compared.getByRole('row', { name: /^tokens/ })).toContainText(' in · ');
  // Every level of the score, not only the top answer, and "of N" on the level.
  const severity = compared.getByRole('row', { name: /^severity/ });
  await expect(severity.locator('.mini-bar')).toHaveCount(4);
  await expect(severity).toContainText(/level \d\.\d\d of 1/);
  await expect(compared.getByRole('row', { name: /^late/ }).locator('.mini-bar')).toHaveCount(4);
  // The run's time and id head each column.
  await expect(compared.locator('thead time')).toHaveCount(2);
  await expect(compared.locator('thead a.mono').first()).toHaveText(/^run-/);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).first().click();
  const text = readFileSync(await (await download).path(), 'utf8');
  expect(text.split('\r\n')[0]).toMatch(/^question,sandbox\/baseline-text run-/);
  expect(text).toMatch(/\r\nseverity,level /);
  expect(text).toMatch(/\r\ncost_usd,/);
  await app.screenshot('runs-compare-distributions');
});

test('history shows provider, cost and latency, and searches, re-runs, deletes and exports', async ({ page, server }) => {
  const app = new AppPage(page);
  await app.open(server.uiUrl);
  await app.goTo('Question sets');
  await composeSet(page, 'Alpha set');
  await runHere(page);
  await expectRunDone(page, 'Alpha set');
  await app.goTo('Question sets');
  // The first set was run, not saved: starting another asks before discarding it.
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'New set' }).click();
  // The new set's grid starts empty: the discarded set's run is not offered as this one's.
  await expect(page.getByRole('table', { name: 'Examples and answers' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open in Runs', exact: true })).toHaveCount(0);
  await app.screenshot('question-set-new-after-a-run');
  await composeSet(page, 'Beta set');
  await runHere(page);
  await expectRunDone(page, 'Beta set');

  const history = page.getByRole('table', { name: 'Run history' });
  const headers = await history.locator('thead th').allInnerTexts();
  // Provider, date and answers sit under their rows' run, model and status, so the actions fit at 1280 px.
  expect(headers).toEqual(expect.arrayContaining(['Model · provider', 'Cost', 'Latency', 'Actions']));
  await expect(history.locator('tbody tr')).toHaveCount(2);
  await expect(history.locator('tbody tr').first()).toContainText('(simulated)');
  await expect(history.locator('tbody tr').first()).toContainText('$');
  await expect(history.locator('tbody tr').first()).toContainText(/\d\.\d\d s/);

  await page.getByLabel('Search').fill('alpha');
  await expect(history.locator('tbody tr')).toHaveCount(1);
  await expect(history.locator('tbody tr')).toContainText('Alpha set');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = readFileSync(await (await download).path(), 'utf8')
    .trim()
    .split('\r\n');
  expect(csv[0]).toBe('id,label,model,provider,status,answered,questions,cost_usd,latency_ms,started_at,error');
  expect(csv).toHaveLength(2);
  expect(csv[1]).toContain('Alpha set');

  await page.getByRole('button', { name: 'Re-run Alpha set' }).click();
  await expect(page).toHaveURL(/#\/runs\?run=run-/);
  await expectRunDone(page, 'Alpha set');
  await page.getByLabel('Search').fill('alpha');
  await expect(history.locator('tbody tr')).toHaveCount(2);

  page.once('dialog', (dialog) => void dialog.accept());
  await history.getByRole('button', { name: 'Delete run Alpha set' }).first().click();
  await expect(history.locator('tbody tr')).toHaveCount(1);
  await page.getByLabel('Search').fill('');
  await expect(history.locator('tbody tr')).toHaveCount(2);
  await app.screenshot('runs-history');
});

test('a run that no endpoint accepted says it cost nothing', async ({ page, server }) => {
  const app = new AppPage(page);
  await app.open(server.uiUrl);
  await app.goTo('Question sets');
  await composeSet(page, 'Nobody', '{"only": ["no-such-provider"]}');
  await runHere(page);
  await expect(page.getByText(/Run “Nobody” · failed/)).toBeVisible({ timeout: 15_000 });
  const facts = page.locator('dl.facts');
  await expect(facts).toContainText('$0 (nothing was sent: no endpoint accepted the request)');
  await expect(facts).not.toContainText('a price is not known');
});

test('endpoints show throughput percentiles, context, separate uptime windows and figures over time', async ({ page, server }) => {
  const app = new AppPage(page);
  const endpoints = new EndpointsPage(page);
  await app.open(server.uiUrl);
  await app.goTo('Endpoints');
  await page.getByRole('button', { name: 'Measure now' }).click();
  await expect
    .poll(async () => (await endpoints.columnValues('Tok/s p50 / p90')).filter((v) => v !== '—').length, { timeout: 20_000 })
    .toBeGreaterThanOrEqual(3);
  const headers = (await endpoints.table.locator('thead th').allInnerTexts()).map((h) => h.replace(/[▲▼]/g, '').trim());
  // Pairs of percentiles in one column each (p75 and p99 in the charts), so ZDR and throughput fit at 1280 px.
  expect(headers).toEqual(expect.arrayContaining(['ZDR', 'Up 5m', 'Up 30m', 'Up 1d', 'TTFT s p50 / p90', 'Tok/s p50 / p90']));
  // The context is said beside each provider.
  await expect(endpoints.table.locator('tbody tr').first()).toContainText('32,768 context');

  // Sorting by throughput puts the fastest (median) first.
  await endpoints.sortBy('Tok/s p50');
  const rates = (await endpoints.columnValues('Tok/s p50 / p90')).filter((v) => v !== '—').map((v) => Number(v.split(' / ')[0]));
  expect(rates).toEqual([...rates].sort((a, b) => b - a));

  // Minutes of data do not make a day: the 5-minute window says it is partial, and with how many attempts;
  // the longer windows hold the same attempts and say so rather than repeat the figure.
  const recent = (await endpoints.columnValues('Up 5m')).filter((v) => v !== '—');
  expect(recent.length).toBeGreaterThan(0);
  for (const value of recent) expect(value).toMatch(/%\* \(\d+\)$/);
  for (const value of (await endpoints.columnValues('Up 1d')).filter((v) => v !== '—')) expect(value).toBe('as 30m');

  await expect(page.getByRole('img', { name: 'Latency over time by provider' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Throughput over time by provider' })).toBeVisible();
  await app.screenshot('endpoints-columns');
});

test("ZDR shows output price, throughput, unknown status, sorts, and links to the model's endpoints", async ({ page, server }) => {
  const app = new AppPage(page);
  await app.open(server.uiUrl);
  await app.goTo('ZDR');
  const table = page.getByRole('table', { name: 'ZDR coverage by model' });
  const text = table.locator('tr[data-model="sandbox/baseline-text"]');
  await expect(text).toContainText('$0.15 → $0.50 (+233%)');
  const headers = (await table.locator('thead th').allInnerTexts()).map((h) => h.replace(/[▲▼]/g, '').trim());
  expect(headers).toEqual(expect.arrayContaining(['Cheapest $/M in · out', 'Best tok/s p50', 'ZDR endpoints']));
  // Flaky's data policy is not known: counted beside the coverage, and said.
  await expect(text).toContainText('1 unknown');
  await expect(page.getByRole('note').filter({ hasText: 'of unknown ZDR status' })).toBeVisible();
  await table.getByRole('button', { name: /^ZDR endpoints/ }).click();
  await expect(table.getByRole('columnheader', { name: /^ZDR endpoints/ })).toHaveAttribute('aria-sort', 'ascending');
  const first = await table.locator('tbody tr').first().getAttribute('data-model');
  await table.getByRole('button', { name: /^ZDR endpoints/ }).click();
  expect(await table.locator('tbody tr').first().getAttribute('data-model')).not.toBe(first);
  await app.screenshot('zdr-sortable');
  await table.locator('tr[data-model="sandbox/baseline-vision"] th a').click();
  await expect(app.heading).toHaveText('Endpoints');
  await expect(page.locator('#model-picker')).toHaveValue('sandbox/baseline-vision');
});

test('a run says how it was routed: preferences, attempts in order with their reasons, and what was left out', async ({ page }) => {
  // A server of its own, restarted below.
  const server = await OwnServer.start({ VERDICT_SANDBOX_FAILURES: 'off' });
  try {
    const app = new AppPage(page);
    await app.open(server.info.uiUrl);
    await app.goTo('Question sets');
    await composeSet(page, 'Routed', '{"sort": "price", "zdr": true}');
    await runHere(page);
    await expect(page.getByText(/Run “Routed” · done/)).toBeVisible({ timeout: 15_000 });
    const routing = page.getByRole('region', { name: 'How this run was routed' });
    await expect(routing).toContainText('Preferences: {"sort":"price","zdr":true}');
    await expect(routing).toContainText('strategy: sort');
    const attempts = routing.getByRole('list', { name: 'Attempts' }).locator('li');
    await expect(attempts.first()).toContainText('Steady (simulated)');
    await expect(attempts.first()).toContainText(/answered in \d+\.\d\d s/);
    await expect(attempts.first()).toContainText('Why here:');
    await expect(attempts.first()).toContainText('price');
    const left = routing.getByRole('list', { name: 'Endpoints left out' });
    await expect(left).toContainText('Bargain (simulated) — retains prompts (not ZDR)');
    await app.screenshot('run-routing');
    // The record outlives the live run: after a restart (the live run is gone with the process), it is read back from the store.
    const { hash } = new URL(page.url());
    const restarted = await server.restart();
    await app.open(restarted.uiUrl);
    await page.goto(`${restarted.url}/${hash}`);
    await expect(page.getByRole('region', { name: 'How this run was routed' }).getByRole('list', { name: 'Attempts' })).toContainText('Steady (simulated)');
  } finally {
    await server.stop();
  }
});
