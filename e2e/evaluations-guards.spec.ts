import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { LogprobProvider, logprobCatalog } from '../electron/test-support/logprob-provider';
import { holdInspectorCalls, inspectorCalls } from './fixtures/network';
import { startBuiltServer, test, expect, type ServerInfo } from './fixtures/server';
import { AppPage } from './pages/app-page';
import { EvaluationsPage } from './pages/evaluations-page';
import { SettingsPage } from './pages/settings-page';

/**
 * What a hurried or careless click must not do on the Evaluations screen: a double click sends one
 * request, a delete asks first and leaves nothing asking for what it deleted, and a paused run's
 * counts end where its metrics do.
 */

test.use({ sandboxFailures: false });

const QUESTIONS = { late: { type: 'noul', instructions: 'Did the parcel come late?' } };
const SET = { model: 'sandbox/baseline-text', state: '', questions: QUESTIONS };
const csvOf = (items: number) =>
  `id,state,expected.late\n${Array.from({ length: items }, (_, i) => `p${i},Review item-${i}: the parcel came ${i % 2 ? 'late' : 'early'}.,${i % 2 === 1}`).join('\n')}\n`;

/** Console errors and page errors, 404s of requests for deleted things among them. */
function problemsOf(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  // The console names a failed request's status alone: which operation, asked with what, is said here.
  page.on('requestfinished', (r) => {
    void r.response().then((res) => {
      if (res && res.status() >= 400) problems.push(`${res.status()} from ${new URL(r.url()).pathname} asked with ${r.postData() ?? 'no body'}`);
    });
  });
  return problems;
}

/** How many times each inspector operation was asked for by the page. */
function callsOf(page: Page): Map<string, number> {
  const calls = new Map<string, number>();
  page.on('request', (r) => {
    const op = /\/api\/inspector\/([\w.]+)$/.exec(new URL(r.url()).pathname)?.[1];
    if (op) calls.set(op, (calls.get(op) ?? 0) + 1);
  });
  return calls;
}

/** The inspector's operations over HTTP with the page's session, as the renderer calls them. */
async function api<T>(page: Page, server: ServerInfo, op: string, input: object): Promise<T> {
  const body = (await (await page.request.post(`${server.url}/api/inspector/${op}`, { headers: { 'x-verdict-client': 'renderer' }, data: input })).json()) as {
    ok: boolean;
    data: T;
    error?: unknown;
  };
  if (!body.ok) throw new Error(`${op}: ${JSON.stringify(body.error)}`);
  return body.data;
}

/** Opens the app with the question set saved, on the Evaluations screen. */
async function openWithSet(page: Page, server: ServerInfo, set: object = SET): Promise<void> {
  const app = new AppPage(page);
  await app.open(server.uiUrl);
  await api(page, server, 'sets.save', { name: 'Parcels', request: set });
  await app.goTo('Evaluations');
}

/**
 * Saves the question set and imports a labelled CSV through the API, then opens Evaluations: set-up
 * for journeys about what comes after (the import itself is a journey of evaluations.spec.ts).
 */
async function importDataset(page: Page, server: ServerInfo, name: string, items: number, set: object = SET): Promise<{ id: string }> {
  const app = new AppPage(page);
  await app.open(server.uiUrl);
  await api(page, server, 'sets.save', { name: 'Parcels', request: set });
  const imported = await api<{ dataset: { id: string } }>(page, server, 'datasets.import', {
    name,
    format: 'csv',
    content: csvOf(items),
    questions: QUESTIONS,
  });
  await app.goTo('Evaluations');
  // The screen has read the dataset once the new-run form offers it.
  await expect(page.getByLabel('Dataset to evaluate on').locator('option', { hasText: name })).toHaveCount(1);
  return imported.dataset;
}

async function startRun(page: Page, name: string, model = 'sandbox/baseline-text', concurrency = 4): Promise<void> {
  const evals = new EvaluationsPage(page);
  await evals.open('New run');
  if (!(await evals.model(model).isChecked())) await evals.model(model).check();
  await page.getByLabel('Run name (optional)').fill(name);
  await page.getByLabel('Concurrency').fill(String(concurrency));
  await evals.startButton.click();
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(`^${name} · `) })).toBeVisible();
}

/** Clicks, waits for the question it asks (it may come after a read from the core), answers it and returns it. */
async function answer(page: Page, how: 'accept' | 'dismiss', button: Locator): Promise<string> {
  const asking = page.waitForEvent('dialog', { timeout: 5_000 });
  // The click ends when the question is answered.
  const clicked = button.click();
  const dialog = await asking;
  expect(dialog.type()).toBe('confirm');
  await dialog[how]();
  await clicked;
  return dialog.message();
}

const runsList = (page: Page) => page.getByRole('list', { name: 'Evaluation runs' });

test('a double click on Estimate asks for one estimate, and on Start run starts one run', async ({ page, server }) => {
  const problems = problemsOf(page);
  const calls = callsOf(page);
  const evals = new EvaluationsPage(page);
  await importDataset(page, server, 'parcels.csv', 8);
  await evals.open('New run');
  await evals.model('sandbox/baseline-text').check();

  await evals.estimateButton.dblclick();
  await expect(evals.estimate).toContainText('8 requests (8 items × 1 model)');
  expect(calls.get('evals.estimate')).toBe(1);

  await evals.startButton.dblclick();
  await expect(evals.runPanel('done')).toBeVisible({ timeout: 20_000 });
  await expect(runsList(page).getByRole('listitem')).toHaveCount(1);
  expect(calls.get('evals.start')).toBe(1);
  const runs = await (await page.request.post(`${server.url}/api/inspector/evals.list`, { headers: { 'x-verdict-client': 'renderer' }, data: {} })).json();
  expect(runs.data).toHaveLength(1);
  expect(problems).toEqual([]);
});

test('a double click on Pause, Resume or Retry failed sends it once', async ({ page }) => {
  test.setTimeout(60_000);
  const itemOf = (text: string) => Number(/item-(\d+)/.exec(text)![1]);
  // Slow enough to pause half-way; item 2 fails every time, so the finished run offers a retry.
  const provider = await new LogprobProvider(() => ({ labels: { Yes: 0.8, No: 0.2 } }), {
    delayMs: 150,
    fail: ({ text }) => (itemOf(text) === 2 ? 503 : null),
  }).start();
  const dataDir = mkdtempSync(join(tmpdir(), 'verdict-e2e-'));
  writeFileSync(join(dataDir, 'catalog.json'), JSON.stringify(logprobCatalog(provider.url, ['alpha'])));
  const { info, child } = await startBuiltServer(dataDir, { VERDICT_SANDBOX_FAILURES: 'off' });
  try {
    const problems = problemsOf(page);
    const calls = callsOf(page);
    const evals = new EvaluationsPage(page);
    await importDataset(page, info, 'slow.csv', 30, { ...SET, model: 'lp/alpha' });
    await startRun(page, 'Slow', 'lp/alpha', 2);
    await expect(page.getByRole('progressbar', { name: 'Items done' })).toHaveAttribute('aria-valuenow', /^([3-9]|\d\d)$/);

    await page.getByRole('button', { name: 'Pause' }).dblclick();
    await expect(evals.runPanel('paused')).toBeVisible();
    expect(calls.get('evals.pause')).toBe(1);

    await page.getByRole('button', { name: 'Resume' }).dblclick();
    await expect(evals.runPanel('done')).toBeVisible({ timeout: 30_000 });
    expect(calls.get('evals.resume')).toBe(1);

    const retry = page.getByRole('button', { name: 'Retry 1 failed' });
    await retry.dblclick();
    await expect(retry).toBeHidden();
    await expect(evals.runPanel('done')).toBeVisible({ timeout: 10_000 });
    await expect(page.getByRole('progressbar', { name: 'Items done' })).toContainText('30 of 30 done · 1 failed');
    expect(calls.get('evals.resume')).toBe(2);
    // The provider was sent item 2 at its first try and once on Retry (a resume after the pause may send it once more).
    const sentItem2 = provider.received.filter((r) => itemOf(r.text) === 2).length;
    expect(sentItem2).toBeLessThanOrEqual(3);
    expect(problems).toEqual([]);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await provider.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('deleting a run or a dataset asks first, naming what goes; dismissed it keeps everything, accepted nothing asks for what went', async ({
  page,
  server,
}) => {
  test.setTimeout(60_000);
  const problems = problemsOf(page);
  const calls = inspectorCalls(page);
  const app = new AppPage(page);
  const evals = new EvaluationsPage(page);
  // Set-up through the API: two finished runs over one dataset.
  const dataset = await importDataset(page, server, 'parcels.csv', 8);
  for (const name of ['First try', 'Second try']) {
    const run = await api<{ id: string }>(page, server, 'evals.start', {
      name,
      request: SET,
      dataset_id: dataset.id,
      variants: [{ model: 'sandbox/baseline-text' }],
      concurrency: 4,
    });
    await expect.poll(async () => (await api<{ status: string }>(page, server, 'evals.get', { id: run.id })).status, { timeout: 20_000 }).toBe('done');
  }
  // The run's report is still being read when it is deleted: that read is called off, not sent on
  // to be answered 404. Reports are held back until the deletion has been drawn.
  const reports = await holdInspectorCalls(page, 'evals.report');
  await page.reload();
  await expect(page.getByRole('heading', { level: 2, name: 'Second try · done' })).toBeVisible();
  await expect(runsList(page).getByRole('listitem')).toHaveCount(2);

  // Dismissed: the run stays.
  let asked = await answer(page, 'dismiss', page.getByRole('button', { name: 'Delete run' }));
  expect(asked).toContain('“Second try”');
  expect(asked).toContain('8 results');
  await expect(runsList(page).getByRole('listitem')).toHaveCount(2);
  await expect(page.getByRole('heading', { level: 2, name: 'Second try · done' })).toBeVisible();

  // Accepted: it goes, the screen shows the other run, and nothing asks for the deleted one.
  await answer(page, 'accept', page.getByRole('button', { name: 'Delete run' }));
  await expect(runsList(page).getByRole('listitem')).toHaveCount(1);
  await expect(page.getByRole('heading', { level: 2, name: 'First try · done' })).toBeVisible();
  reports.release();
  await reports.stop();
  await expect(evals.metrics).toBeVisible();
  // Whatever the deletion made the page ask for has been answered.
  await calls.quiet();
  expect(problems).toEqual([]);

  // The dataset: the question names the run that goes with it; dismissed, nothing goes.
  await evals.open('Datasets');
  await page.getByRole('list', { name: 'Datasets' }).getByRole('button', { name: 'parcels.csv' }).click();
  asked = await answer(page, 'dismiss', page.getByRole('button', { name: 'Delete dataset' }));
  expect(asked).toContain('“parcels.csv” (8 items)');
  expect(asked).toContain('1 evaluation run');
  expect(asked).toContain('“First try”');
  expect(asked).not.toContain('Second try');
  await app.screenshot('evaluations-guards-before-delete');
  await expect(page.getByRole('list', { name: 'Datasets' }).getByRole('listitem')).toHaveCount(1);
  await evals.open('Runs');
  await expect(runsList(page).getByRole('listitem')).toHaveCount(1);

  await evals.open('Datasets');
  await answer(page, 'accept', page.getByRole('button', { name: 'Delete dataset' }));
  await expect(page.getByRole('list', { name: 'Datasets' }).getByRole('listitem')).toHaveCount(0);
  await expect(runsList(page)).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 2, name: /First try/ })).toHaveCount(0);
  // Whatever the deletion made the page ask for has been answered.
  await calls.quiet();
  expect(problems).toEqual([]);
  await app.screenshot('evaluations-guards-after-delete');
});

test('after a pause, the progress and the runs list end at the count the metrics have, without a reload', async ({ page }) => {
  test.setTimeout(90_000);
  // Simulated providers at their real pace, so requests are still in flight when Pause is pressed.
  const dataDir = mkdtempSync(join(tmpdir(), 'verdict-e2e-'));
  const { info, child } = await startBuiltServer(dataDir, { VERDICT_SANDBOX_FAILURES: 'off', VERDICT_SANDBOX_TIME_SCALE: '1' });
  try {
    const problems = problemsOf(page);
    const app = new AppPage(page);
    const evals = new EvaluationsPage(page);
    await importDataset(page, info, 'sixty.csv', 60);
    await startRun(page, 'Sixty', 'sandbox/baseline-text', 6);
    const progress = page.getByRole('progressbar', { name: 'Items done' });
    await expect(progress).toHaveAttribute('aria-valuenow', /^([3-9]|\d\d)$/, { timeout: 30_000 });
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect(evals.runPanel('paused')).toBeVisible();

    // What the core counts once the requests in flight at the pause have come back (it says how many are still out).
    const read = async () =>
      (
        (await (
          await page.request.post(`${info.url}/api/inspector/evals.get`, { headers: { 'x-verdict-client': 'renderer' }, data: { id: await runId(page, info) } })
        ).json()) as { data: { done: number; in_flight: number } }
      ).data;
    await expect.poll(async () => (await read()).in_flight, { timeout: 20_000 }).toBe(0);
    const stored = (await read()).done;
    expect(stored).toBeLessThan(60);

    await expect(progress).toContainText(`${stored} of 60 done`, { timeout: 5_000 });
    await expect(evals.metric('sandbox/baseline-text', 'late', 'n')).toHaveText(String(stored));
    await expect(runsList(page).getByRole('listitem').filter({ hasText: 'Sixty' })).toContainText(`paused · ${stored}/60`);
    await app.screenshot('evaluations-guards-paused-light');
    await app.goTo('Settings');
    await new SettingsPage(page).chooseTheme('dark');
    await app.goTo('Evaluations');
    await expect(progress).toContainText(`${stored} of 60 done`);
    await app.screenshot('evaluations-guards-paused-dark');
    // Cancel cannot be undone, so it asks; dismissed, the run stays paused, and can still be resumed.
    const asked = await answer(page, 'dismiss', page.getByRole('button', { name: 'Cancel' }));
    expect(asked).toContain('Cancel the run “Sixty”?');
    expect(asked).toContain(`Its ${stored} results so far stay.`);
    await expect(evals.runPanel('paused')).toBeVisible();
    await answer(page, 'accept', page.getByRole('button', { name: 'Cancel' }));
    await expect(evals.runPanel('cancelled')).toBeVisible();
    await expect(progress).toContainText(`${stored} of 60 done`);
    expect(problems).toEqual([]);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
});

async function runId(page: Page, info: ServerInfo): Promise<string> {
  const list = (await (await page.request.post(`${info.url}/api/inspector/evals.list`, { headers: { 'x-verdict-client': 'renderer' }, data: {} })).json()) as {
    data: { id: string }[];
  };
  return list.data[0]!.id;
}

test("the dataset's name is held to 200 characters as it is typed, and a long name imports", async ({ page, server }) => {
  const problems = problemsOf(page);
  const evals = new EvaluationsPage(page);
  await openWithSet(page, server);
  const name = page.getByRole('textbox', { name: 'Name', exact: true });
  await name.fill('x'.repeat(250));
  await expect(name).toHaveValue('x'.repeat(200));
  await evals.datasetFile.setInputFiles({ name: 'parcels.csv', mimeType: 'text/csv', buffer: Buffer.from(csvOf(4)) });
  await evals.importButton.click();
  await expect(page.getByTestId('import-result')).toContainText('Imported 4 items');
  await expect(page.getByRole('list', { name: 'Datasets' }).getByRole('button', { name: 'x'.repeat(200), exact: true })).toBeVisible();
  expect(problems).toEqual([]);
});

test('an estimate is for the dataset it was made for, picked in the form or in the Datasets list, and a deleted dataset is not left picked', async ({
  page,
  server,
}) => {
  const evals = new EvaluationsPage(page);
  const problems = problemsOf(page);
  await importDataset(page, server, 'first.csv', 4);
  await evals.open('Datasets');
  await evals.datasetFile.setInputFiles({ name: 'second.csv', mimeType: 'text/csv', buffer: Buffer.from(csvOf(6)) });
  await evals.importButton.click();
  await expect(page.getByTestId('import-result')).toContainText('Imported 6 items');
  await evals.open('New run');
  await evals.model('sandbox/baseline-text').check();
  await evals.estimateButton.click();
  await expect(evals.estimate).toContainText('6 requests (6 items × 1 model)');

  // Another dataset picked in the Datasets list: the estimate of the one before is gone.
  await evals.open('Datasets');
  await page.getByRole('list', { name: 'Datasets' }).getByRole('button', { name: 'first.csv', exact: true }).click();
  await evals.open('New run');
  await expect(evals.estimate).toBeHidden();
  await evals.estimateButton.click();
  await expect(evals.estimate).toContainText('4 requests (4 items × 1 model)');

  // Picked in the form too, then deleted: the form moves to a dataset that exists, and estimates it.
  const picked = page.getByLabel('Dataset to evaluate on');
  await picked.selectOption({ label: 'first.csv (4 items, all labelled for this set)' });
  await evals.open('Datasets');
  await answer(page, 'accept', page.getByRole('button', { name: 'Delete dataset' }));
  await expect(page.getByRole('list', { name: 'Datasets' }).getByRole('listitem')).toHaveCount(1);
  await evals.open('New run');
  await expect(picked.locator('option:checked')).toHaveText('second.csv (6 items, all labelled for this set)');
  await expect(evals.estimate).toBeHidden();
  await evals.estimateButton.click();
  await expect(evals.estimate).toContainText('6 requests (6 items × 1 model)');
  expect(problems).toEqual([]);
});

test('a provider preference that is not allowed is named by its line and says what is allowed', async ({ page, server }) => {
  const evals = new EvaluationsPage(page);
  await importDataset(page, server, 'parcels.csv', 4);
  await evals.open('New run');
  await evals.model('sandbox/baseline-text').check();
  const preferences = page.getByLabel('Provider preferences per variant');
  await preferences.fill('{"label": "cheapest", "provider": {"sort": "price"}}\n\n{"label": "odd", "provider": {"sort": "bogus"}}');
  await evals.estimateButton.click();
  await expect(page.locator('.notice-error').filter({ hasText: 'No estimate' })).toContainText(
    'Provider preferences, line 3: sort: Invalid option: expected one of "price"|"throughput"|"latency"|"exacto"',
  );
  // The preferences themselves with a label beside them are taken too.
  await preferences.fill('{"label": "cheapest", "sort": "price"}\n{"label": "fastest", "sort": "latency"}');
  await evals.estimateButton.click();
  await expect(evals.estimate).toContainText('8 requests (4 items × 2 preference sets)');
});
