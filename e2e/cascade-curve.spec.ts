import { test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';
import { EvaluationsPage } from './pages/evaluations-page';

test.use({ sandboxFailures: false });

const QUESTIONS = {
  late: { type: 'noul', instructions: 'Did the parcel arrive late?' },
  topic: { type: 'choice', instructions: 'Topic?', criteria: { delivery: 'late parcel, delivery, courier', billing: 'invoice, refund, charge' } },
};
const ROWS = Array.from({ length: 24 }, (_, i) => {
  const text = [`parcel ${i} arrived late, the courier lost it`, `invoice ${i} charged twice`, `a question about order ${i}`][i % 3];
  return `i${i},"${text}",${i % 3 !== 0},${i % 3 === 1 ? 'billing' : 'delivery'}`;
});
const CSV = `id,state,expected.late,expected.topic\n${ROWS.join('\n')}\n`;
const HEADERS = { 'x-verdict-client': 'renderer' };
/**
 * Every request on its model's cheapest endpoint: the simulated fleet answers the same whatever the
 * endpoint, but its load balancing spreads requests over endpoints of different prices, so without
 * this a cascade run's cost per item would differ from the curve's by which endpoints it drew.
 */
const CHEAPEST = { sort: 'price' };

type Single = { accuracy: number; cost_per_item: number };
type Point = Single & { threshold: number; condition: unknown; escalated_items: number };
/** The rows the panel lists: of thresholds escalating the same items, the lowest. */
const distinct = (points: Point[]) => points.filter((p, i) => i === 0 || p.escalated_items !== points[i - 1]!.escalated_items);
/** A threshold a model alone beats: as accurate or more for no more, better on one. */
const beaten = (p: Single, singles: Single[]) =>
  singles.some((s) => s.accuracy >= p.accuracy && s.cost_per_item <= p.cost_per_item && (s.accuracy > p.accuracy || s.cost_per_item < p.cost_per_item));

test('an analyst reads the cascade curve of two models run on a labelled dataset, picks a point by a target, saves it as a preset, runs the preset from the run form, and sees the run land on the point', async ({
  page,
  server,
}) => {
  test.setTimeout(180_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  const app = new AppPage(page);
  const evals = new EvaluationsPage(page);
  await app.open(server.uiUrl);
  const op = async <T>(name: string, data: unknown): Promise<T> => {
    const response = await page.request.post(`${server.url}/api/inspector/${name}`, { headers: HEADERS, data });
    expect(response.ok(), `${name}: ${await response.text()}`).toBe(true);
    const body = (await response.json()) as { ok?: boolean; data?: T } & T;
    return (body.data ?? body) as T;
  };
  const imported = await op<{ dataset: { id: string } }>('datasets.import', { name: 'tickets.csv', format: 'csv', content: CSV, questions: QUESTIONS });
  const run = await op<{ id: string; name: string }>('evals.start', {
    request: { model: 'sandbox/cheap-mini', state: '', questions: QUESTIONS, provider: CHEAPEST },
    dataset_id: imported.dataset.id,
    variants: [{ model: 'sandbox/cheap-mini' }, { model: 'sandbox/sharp-large' }],
    concurrency: 4,
  });
  await expect.poll(async () => (await op<{ status: string }>('evals.get', { id: run.id })).status, { timeout: 60_000 }).toBe('done');
  // What the curve says, read the way the screen reads it.
  const curve = await op<{ points: Point[]; first: Single; second: Single }>('evals.cascadeCurve', {
    id: run.id,
    first_variant: 0,
    second_variant: 1,
    question: 'topic',
  });
  // The set the cascade run asks: the same questions, each request on its model's cheapest endpoint.
  await op('sets.save', { name: 'tickets, cheapest endpoints', request: { model: 'sandbox/cheap-mini', state: '', questions: QUESTIONS, provider: CHEAPEST } });
  // A preset saved through the API for any first model: the form asks which model goes first.
  await op('cascadePresets.save', { name: 'any-unsure', model: 'sandbox/sharp-large', when: { confidenceBelow: 0.5 } });

  await app.goTo('Evaluations');
  await evals.open('Runs');
  await page.getByRole('list', { name: 'Evaluation runs' }).getByRole('button', { name: run.name }).click();
  const panel = page.locator('.cascade-panel');
  await expect(panel.getByRole('img', { name: /Cascade accuracy against cost: sandbox\/cheap-mini then sandbox\/sharp-large/ })).toBeVisible();
  const table = panel.getByRole('table', { name: 'Cascade at each threshold' });
  await expect(table).toBeVisible();
  // While the curve of another condition is fetched, the one shown before goes: its points (and the
  // condition a pick would save) read other questions. The reply is held until that is checked.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/inspector/evals.cascadeCurve', async (route) => {
    if ((route.request().postDataJSON() as { question?: string }).question === 'topic') await held;
    await route.continue();
  });
  await panel.getByLabel('Condition reads').selectOption('q:topic');
  await expect(panel.getByRole('status').filter({ hasText: 'Loading the cascade curve' })).toBeVisible();
  await expect(table).toHaveCount(0);
  await expect(panel.getByTestId('cascade-condition')).toHaveCount(0);
  await app.screenshotOf(panel, 'cascade-panel-loading');
  release();
  await expect(panel.getByTestId('cascade-items')).toContainText('24 items both models answered; accuracy over topic.');
  const rows = distinct(curve.points);
  await expect(table.locator('tbody tr')).toHaveCount(rows.length + 2);
  await expect(table.locator('tbody tr').nth(2).locator('td').nth(1)).toHaveText(JSON.stringify(rows[0]!.condition));

  // The target: the cheapest threshold no model alone beats, at the best accuracy such a threshold
  // reaches, is the one the screen picks, and the target it starts with.
  const worth = rows.filter((p) => !beaten(p, [curve.first, curve.second]));
  const best = Math.max(...worth.map((p) => p.accuracy));
  const cheapest = worth.filter((p) => p.accuracy >= best).sort((a, b) => a.cost_per_item - b.cost_per_item)[0]!;
  await expect(panel.getByLabel('Target accuracy in percent')).toHaveValue(String(Math.floor(best * 1000) / 10));
  await expect(panel.getByTestId('cascade-pick')).toContainText(`Threshold ${cheapest.threshold}`);
  await panel.getByLabel('Target accuracy in percent').fill(String(Math.floor(best * 1000) / 10));
  await expect(panel.getByTestId('cascade-pick')).toContainText(`Threshold ${cheapest.threshold}`);
  const shown = JSON.parse((await panel.getByTestId('cascade-condition').textContent()) ?? '{}') as { model: string; when: unknown };
  expect(shown).toEqual({ model: 'sandbox/sharp-large', when: cheapest.condition });
  await panel.scrollIntoViewIfNeeded();
  await app.screenshot('cascade-curve-picked', { fullPage: false });
  await app.screenshotOf(panel, 'cascade-panel');

  // Above what any threshold reaches: said, with the closest.
  await panel.getByLabel('Target accuracy in percent').fill('100.5');
  await expect(panel.getByTestId('cascade-pick')).toContainText(/No threshold reaches 100\.5%/);
  await panel.getByLabel('Target accuracy in percent').fill(String(Math.floor(best * 1000) / 10));

  await panel.getByLabel('Preset name').fill('topic-unsure');
  await panel.getByRole('button', { name: 'Save as preset' }).click();
  await expect(panel.getByRole('status')).toContainText('Saved “topic-unsure”');
  const presets = await op<{ name: string; model: string; first_model: string; when: unknown; source: { run_id: string } }[]>('cascadePresets.list', {});
  expect(presets).toEqual([
    expect.objectContaining({ name: 'any-unsure', first_model: null }),
    expect.objectContaining({
      name: 'topic-unsure',
      model: 'sandbox/sharp-large',
      first_model: 'sandbox/cheap-mini',
      when: cheapest.condition,
      source: expect.objectContaining({ run_id: run.id }),
    }),
  ]);
  await app.screenshotOf(panel, 'cascade-panel-saved');

  // What the panel shows of the picked point: the figures the cascade run is to land on.
  const pickedRow = table.locator('tbody tr[aria-selected="true"]');
  await expect(pickedRow).toHaveCount(1);
  const pickedAccuracy = (await pickedRow.locator('td').nth(2).textContent())!;
  const pickedCost = (await pickedRow.locator('td').nth(3).textContent())!;
  expect(pickedAccuracy).toBe(`${(cheapest.accuracy * 100).toFixed(1)}%`);

  await evals.open('New run');
  const form = page.getByRole('region', { name: 'New evaluation run' });
  await form.getByLabel('Question set to evaluate').selectOption({ label: 'tickets, cheapest endpoints' });
  await form.getByLabel('Dataset to evaluate on').selectOption({ label: 'tickets.csv (24 items, all labelled for this set)' });
  const presetBox = form.getByRole('group', { name: 'Cascade presets' });
  const preset = presetBox.getByRole('checkbox', { name: 'topic-unsure: sandbox/cheap-mini → sandbox/sharp-large, when topic: confidence below' });
  await expect(preset).toBeVisible();
  await expect(presetBox).toContainText(`on its curve: ${pickedAccuracy} at ${pickedCost} per item`);
  // Without a first model of its own, a preset cannot be ticked until one is chosen.
  const anyUnsure = (first: string) =>
    presetBox.getByRole('checkbox', { name: `any-unsure: ${first} → sandbox/sharp-large, when any choice, score or box question: confidence below 0.5` });
  await expect(anyUnsure('a first model')).toBeDisabled();
  await presetBox.getByLabel('First model for any-unsure').selectOption('sandbox/skewed-small');
  await expect(anyUnsure('sandbox/skewed-small')).toBeEnabled();
  await expect(anyUnsure('sandbox/skewed-small')).not.toBeChecked();
  // A preset alone is a run: no plain model needs ticking.
  await expect(evals.startButton).toBeDisabled();
  await preset.check();
  await expect(evals.startButton).toBeEnabled();
  await evals.estimateButton.click();
  await expect(evals.estimate).toBeVisible();
  // cheap-mini has answered these 24 items alone: the share its condition sends on is read from those answers, so the cascade has an expected cost and a range.
  await expect(evals.estimate.getByTestId('expected-cost')).toHaveText(/^\$0\.\d+$/);
  await expect(evals.estimate.getByTestId('likely-cost')).toHaveText(/^\$0\.\d+ – \$0\.\d+$/);
  const note = form.getByRole('note', { name: 'Cascade estimate' });
  await expect(note).toContainText(
    /\d+% of items go on to sandbox\/sharp-large: its condition holds on that share of sandbox\/cheap-mini's newest answers to 24 of this dataset's items/,
  );
  // The worst case holds both stages for every item: the whole run's worst case is the cascade's, and more than the first model's alone.
  const worst = (await evals.estimate.getByTestId('worst-case').textContent())!;
  await expect(note).toContainText(`sandbox/cheap-mini → sandbox/sharp-large (topic-unsure) at most ${worst}`);
  const firstAlone = await op<{ worst_usd: number }>('evals.estimate', {
    request: { model: 'sandbox/cheap-mini', state: '', questions: QUESTIONS, provider: CHEAPEST },
    dataset_id: imported.dataset.id,
    variants: [{ model: 'sandbox/cheap-mini' }],
  });
  expect(Number(worst.replace('$', ''))).toBeGreaterThan(firstAlone.worst_usd);
  await app.screenshotOf(form, 'cascade-run-form');

  await form.getByLabel('Run name (optional)').fill('topic-unsure on tickets');
  await evals.startButton.click();
  await expect(evals.runPanel('done')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('heading', { level: 2, name: 'topic-unsure on tickets · done' })).toBeVisible();
  const landed = page.getByTestId('cascade-run');
  await expect(landed).toContainText('sandbox/cheap-mini answers every item, sandbox/sharp-large again when topic: confidence below');
  // Answers are deterministic: the accuracy is the point's. Costs are too, every request on its cheapest endpoint.
  await expect(landed.getByTestId('cascade-run-accuracy')).toHaveText(pickedAccuracy);
  await expect(landed.getByTestId('cascade-run-cost')).toHaveText(pickedCost);
  await expect(landed.getByTestId('cascade-curve-accuracy')).toHaveText(pickedAccuracy);
  await expect(landed.getByTestId('cascade-curve-cost')).toHaveText(pickedCost);
  // And beyond the screen's rounding: the report's figures are the point's.
  const runs = await op<{ id: string; name: string; spent_usd: number }[]>('evals.list', {});
  const cascadeRun = runs.find((r) => r.name === 'topic-unsure on tickets')!;
  const report = await op<{ models: { model: string; questions: Record<string, { accuracy: number }> }[] }>('evals.report', { id: cascadeRun.id });
  expect(report.models.map((m) => m.model)).toEqual(['sandbox/cheap-mini → sandbox/sharp-large (topic-unsure)']);
  expect(report.models[0]!.questions['topic']!.accuracy).toBeCloseTo(cheapest.accuracy, 12);
  expect(cascadeRun.spent_usd / 24).toBeCloseTo(cheapest.cost_per_item, 12);
  await landed.scrollIntoViewIfNeeded();
  await app.screenshot('cascade-run-report', { fullPage: false });
  expect(problems).toEqual([]);
});

test('the cascade panel starts on the cheapest model then the dearer, at a target it reaches, with thresholds as people write them, and never picks a threshold a model alone beats', async ({
  page,
  server,
}) => {
  test.setTimeout(120_000);
  const app = new AppPage(page);
  const evals = new EvaluationsPage(page);
  await app.open(server.uiUrl);
  const op = async <T>(name: string, data: unknown): Promise<T> => {
    const response = await page.request.post(`${server.url}/api/inspector/${name}`, { headers: HEADERS, data });
    expect(response.ok(), `${name}: ${await response.text()}`).toBe(true);
    const body = (await response.json()) as { ok?: boolean; data?: T } & T;
    return (body.data ?? body) as T;
  };
  const imported = await op<{ dataset: { id: string } }>('datasets.import', { name: 'tickets.csv', format: 'csv', content: CSV, questions: QUESTIONS });
  // The dear model listed first, as the review's run had it.
  const run = await op<{ id: string; name: string }>('evals.start', {
    request: { model: 'sandbox/sharp-large', state: '', questions: QUESTIONS, provider: CHEAPEST },
    dataset_id: imported.dataset.id,
    variants: [{ model: 'sandbox/sharp-large' }, { model: 'sandbox/cheap-mini' }],
    concurrency: 4,
  });
  await expect.poll(async () => (await op<{ status: string }>('evals.get', { id: run.id })).status, { timeout: 60_000 }).toBe('done');
  const report = await op<{ models: { model: string; cost_usd: number; items: number }[] }>('evals.report', { id: run.id });
  const perItem = (m: string) => report.models.find((x) => x.model === m)!;
  // Measured: cheap-mini costs less per item than sharp-large.
  expect(perItem('sandbox/cheap-mini').cost_usd / perItem('sandbox/cheap-mini').items).toBeLessThan(
    perItem('sandbox/sharp-large').cost_usd / perItem('sandbox/sharp-large').items,
  );

  await app.goTo('Evaluations');
  await evals.open('Runs');
  const panel = page.locator('.cascade-panel');
  await expect(panel.getByLabel('First model')).toHaveValue('1');
  await expect(panel.getByLabel('First model').locator('option:checked')).toHaveText('sandbox/cheap-mini');
  await expect(panel.getByLabel('Second model').locator('option:checked')).toHaveText('sandbox/sharp-large');
  // What the condition's figure is, beside the control.
  await expect(panel.getByTestId('cascade-figure-help')).toContainText('1 − H/ln n');
  await expect(panel.getByTestId('cascade-figure-help')).toContainText('not the probability of being right');

  const curve = await op<{ points: Point[]; first: Single; second: Single }>('evals.cascadeCurve', { id: run.id, first_variant: 1, second_variant: 0 });
  const table = panel.getByRole('table', { name: 'Cascade at each threshold' });
  const rows = distinct(curve.points);
  await expect(table.locator('tbody tr')).toHaveCount(rows.length + 2);
  // Thresholds as people write them: no float noise (0.5517909999999999), each row a different share escalated.
  const thresholds = await table.locator('tbody tr td:first-child.mono').allTextContents();
  expect(thresholds.length).toBe(rows.length);
  for (const t of thresholds) expect(t).toMatch(/^\d(\.\d{1,6})?$/);
  const escalated = await table.locator('tbody tr').evaluateAll((trs) => trs.slice(2).map((tr) => tr.children[4]!.textContent));
  expect(new Set(escalated).size).toBe(escalated.length);
  // The default target is reached, by a threshold no model alone beats; the beaten ones say so.
  const pick = panel.getByTestId('cascade-pick');
  await expect(pick).toContainText(/^Threshold /);
  await expect(pick).not.toHaveClass(/notice-warn/);
  const picked = table.locator('tbody tr[aria-selected="true"]');
  await expect(picked).toHaveCount(1);
  await expect(picked.getByTestId('dominated')).toHaveText('');
  const beatenRows = rows.filter((p) => beaten(p, [curve.first, curve.second]));
  await expect(table.getByTestId('dominated').filter({ hasText: 'alone does as well for less' })).toHaveCount(beatenRows.length);
  // A target only a beaten threshold reaches is not reached by a cascade: the second model alone is the answer there.
  const reachedOnlyByBeaten = beatenRows.filter((p) => !rows.some((q) => !beaten(q, [curve.first, curve.second]) && q.accuracy >= p.accuracy));
  if (reachedOnlyByBeaten.length > 0) {
    await panel.getByLabel('Target accuracy in percent').fill(String(Math.floor(reachedOnlyByBeaten[0]!.accuracy * 1000) / 10));
    await expect(pick).toHaveClass(/notice-warn/);
  }
  await panel.scrollIntoViewIfNeeded();
  await app.screenshotInBothThemes('cascade-panel-defaults', panel);
});
