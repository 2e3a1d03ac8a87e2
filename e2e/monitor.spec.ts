import { expectAccessibleInBothThemes } from './fixtures/axe';
import { inspector } from './fixtures/inspector';
import { test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';
import { EvaluationsPage } from './pages/evaluations-page';
import { ReviewPage } from './pages/review-page';

// Answers every time: the journey counts what was captured and reviewed.
test.use({ sandboxFailures: false });

const QUESTIONS = {
  late: { type: 'noul', instructions: 'Did the parcel arrive late?' },
  topic: { type: 'choice', instructions: 'Topic?', criteria: { delivery: 'late parcel, delivery, courier', billing: 'invoice, refund, charge' } },
};
const TEXTS = (i: number) =>
  [`Parcel ${i} arrived four days late, the courier lost it`, `Invoice ${i} was charged twice, please refund`, `Parcel ${i} came on time`][i % 3]!;
/** Every request on its model's cheapest endpoint, so that the run's costs do not depend on which endpoints it drew. */
const CHEAPEST = { sort: 'price' };

type Monitor = { window: { requests: number }; accuracy: { reviewed: number; correct: number } | null; waiting_review: number };

test('live traffic of a saved set is watched on the Monitor, reviewed from there, evaluated across models on what people said, and a cascade threshold adopted into its preset', async ({
  page,
  server,
}) => {
  test.setTimeout(240_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  const app = new AppPage(page);
  const review = new ReviewPage(page);
  const evals = new EvaluationsPage(page);
  await app.open(server.uiUrl);
  const call = inspector(page, server.url);

  // The set, a rule watching it, and a key for the traffic.
  const set = await call<{ id: string }>('sets.save', {
    name: 'Parcels',
    request: { model: 'sandbox/cheap-mini', state: '', questions: QUESTIONS, provider: CHEAPEST },
  });
  await call('captures.create', { name: 'parcels live', question_set_id: set.id });
  await call('cascadePresets.save', {
    name: 'parcels-unsure',
    model: 'sandbox/sharp-large',
    first_model: 'sandbox/cheap-mini',
    when: { confidenceBelow: 0.01 },
  });
  const { key } = await call<{ key: string }>('apiKeys.create', { name: 'parcel traffic' });
  const send = async (i: number) => {
    const response = await page.request.post(`${server.url}/api/alpha/decisions`, {
      headers: { Authorization: `Bearer ${key}` },
      data: { model: 'sandbox/cheap-mini', state: TEXTS(i), questions: QUESTIONS, provider: CHEAPEST },
    });
    expect(response.status(), await response.text()).toBe(200);
  };
  for (let i = 0; i < 12; i += 1) await send(i);
  const monitor = () => call<Monitor>('captures.monitor', { question_set_id: set.id, window: '1h' });
  await expect.poll(async () => (await monitor()).window.requests, { timeout: 15_000 }).toBe(12);

  // The product team: Alt+6 opens the Monitor on the set, with its volume, latency and what waits.
  await page.keyboard.press('Alt+6');
  await expect(app.heading).toHaveText('Monitor');
  await expect(page.getByLabel('Watch').locator('option:checked')).toHaveText('Parcels (1 rule)');
  await page.getByRole('combobox', { name: /^Window/ }).selectOption('1h');
  const figure = (id: string) => page.getByTestId(`monitor-${id}`);
  await expect(figure('requests')).toHaveText('12 (reference 0)');
  await expect(figure('latency')).toHaveText(/^\d+(\.\d+)? m?s \/ \d+(\.\d+)? m?s$/);
  await expect(figure('escalated')).toHaveText('0.0%');
  await expect(figure('accuracy')).toHaveText('none reviewed yet');
  await expect(figure('waiting')).toHaveText('12');
  const table = page.getByRole('table', { name: 'Live answers by question' });
  await expect(table.getByRole('row', { name: /^late/ })).toContainText('— (a window has no answers)');
  await expect(table.getByRole('row', { name: /^topic/ })).toContainText(/(delivery|billing) \d+\.\d%/);
  await app.screenshotInBothThemes('monitor-set');
  await expectAccessibleInBothThemes(page, 'Monitor, a watched set');

  // The reviewer goes from there to the waiting items and answers ten by keyboard.
  await page.getByRole('link', { name: /^Review the waiting items \(12 in “Captured: parcels live”\)/ }).click();
  await expect(app.heading).toHaveText('Review');
  await expect(review.dataset.locator('option:checked')).toHaveText(/^Captured: parcels live/);
  for (let n = 1; n <= 10; n += 1) {
    await expect(review.itemHeading(n)).toBeFocused();
    // What the text says: late for the parcels that came late, the topic by what it is about.
    const i = n - 1;
    await page.keyboard.press(i % 3 === 0 ? 'y' : 'n');
    await page.keyboard.press(i % 3 === 1 ? '2' : '1');
    await page.keyboard.press('Enter');
    await expect(review.committedHeading(n)).toBeVisible();
    await page.keyboard.press('Enter');
  }
  await expect(review.counts).toContainText('Reviewed10');

  // Back on the Monitor the figures moved: live accuracy over the twenty reviewed answers, two waiting.
  await app.goTo('Monitor');
  const reviewed = await monitor();
  expect(reviewed.accuracy?.reviewed).toBe(20);
  await expect(figure('accuracy')).toContainText(`${reviewed.accuracy!.correct} of 20 reviewed`);
  await expect(figure('accuracy')).toContainText('95% interval');
  await expect(figure('waiting')).toHaveText('2');

  // The analyst evaluates the set on what people said, across the cheap and the sharp model.
  await page.getByRole('link', { name: 'Evaluate the set on the 10 reviewed items' }).click();
  await expect(app.heading).toHaveText('Evaluations');
  await expect(evals.tab('New run')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Question set to evaluate').locator('option:checked')).toHaveText(/^Parcels/);
  await expect(page.getByLabel('Dataset to evaluate on').locator('option:checked')).toHaveText(/^Captured: parcels live/);
  for (const model of ['sandbox/cheap-mini', 'sandbox/sharp-large']) await evals.model(model).check();
  await evals.startButton.click();
  await expect(evals.runPanel('done')).toBeVisible({ timeout: 90_000 });

  // The cascade in production today is a preset at another point of this curve than the one the panel picks.
  const cascade = page.locator('.cascade-panel');
  await expect(cascade.getByRole('img', { name: 'Cascade accuracy against cost: sandbox/cheap-mini then sandbox/sharp-large' })).toBeVisible();
  const pickedThreshold = async () => Number(((await page.getByTestId('cascade-pick').locator('strong').textContent()) ?? '').replace('Threshold ', ''));
  const picked = await pickedThreshold();
  const runs = await call<{ id: string; name: string }[]>('evals.list', {});
  const curve = await call<{ points: { threshold: number; condition: unknown; accuracy: number | null }[] }>('evals.cascadeCurve', {
    id: runs[0]!.id,
    first_variant: 0,
    second_variant: 1,
    family: 'confidenceBelow',
  });
  const before = curve.points.filter((p) => p.threshold !== picked && p.accuracy !== null).at(-1)!;
  await call('cascadePresets.save', { name: 'parcels-unsure', model: 'sandbox/sharp-large', first_model: 'sandbox/cheap-mini', when: before.condition });
  await page.reload();
  await evals.open('Runs');
  await page.getByRole('list', { name: 'Evaluation runs' }).getByRole('button', { name: runs[0]!.name }).click();
  await expect(cascade.getByTestId('cascade-pick')).toBeVisible();
  expect(await pickedThreshold()).toBe(picked);

  // Adopting shows where the preset stands now and where it goes, both on the curve.
  const adopt = page.getByTestId('adopt-preset');
  await expect(adopt.getByLabel('Adopt into').locator('option:checked')).toHaveText('parcels-unsure');
  const points = adopt.getByRole('list', { name: "The preset's threshold now and adopted" });
  await expect(points).toContainText(`Now: threshold ${before.threshold}:`);
  await expect(points).toContainText('(the square on the chart)');
  await expect(points).toContainText(`Adopted: threshold ${picked}:`);
  await cascade.scrollIntoViewIfNeeded();
  await app.screenshotInBothThemes('monitor-adopt', cascade);
  await adopt.getByRole('button', { name: `Adopt threshold ${picked}` }).click();
  await expect(adopt.getByRole('status')).toContainText(`“parcels-unsure” now escalates at threshold ${picked}`);

  // The preset moved, and the audit log names the point it left and the one it took.
  const presets = await call<{ name: string; when: unknown; source: { threshold: number } | null }[]>('cascadePresets.list', {});
  const moved = presets.find((p) => p.name === 'parcels-unsure')!;
  expect(moved.source?.threshold).toBe(picked);
  expect(moved.when).not.toEqual(before.condition);
  const audit = await call<{ entries: { action: string; details: { before?: { when: unknown }; point?: { threshold: number } } }[] }>('audit.list', {
    offset: 0,
    limit: 5,
    target_kind: 'cascade_preset',
  });
  expect(audit.entries[0]).toMatchObject({ action: 'cascade_preset.save', details: { before: { when: before.condition }, point: { threshold: picked } } });
  expect(problems).toEqual([]);
});

test('a reference window of dates the analyst picks: a shift in the traffic since then raises the drift alert; a window that ends before it starts is named before anything is asked', async ({
  page,
  server,
}) => {
  test.setTimeout(90_000);
  const app = new AppPage(page);
  await app.open(server.uiUrl);
  const call = inspector(page, server.url);
  await call('captures.create', { name: 'everything' });
  const { key } = await call<{ key: string }>('apiKeys.create', { name: 'traffic' });
  const send = async (state: string) => {
    const data = { model: 'sandbox/baseline-text', state, questions: { late: QUESTIONS.late } };
    expect((await page.request.post(`${server.url}/api/alpha/decisions`, { headers: { Authorization: `Bearer ${key}` }, data })).status()).toBe(200);
  };
  // First the traffic is about invoices; from a moment on, it is all about parcels that came late.
  for (let i = 0; i < 10; i += 1) await send(`Invoice ${i} was charged twice, please refund`);
  const rules = () => call<{ captured_total: number }[]>('captures.list', {});
  await expect.poll(async () => (await rules())[0]!.captured_total, { timeout: 15_000 }).toBe(10);
  // The inputs take whole seconds: a second's margin on either side of the moment.
  await page.waitForTimeout(1100);
  const shift = new Date();
  await page.waitForTimeout(1100);
  for (let i = 0; i < 10; i += 1) await send(`Parcel ${i} arrived four days late, the courier lost it`);
  await expect.poll(async () => (await rules())[0]!.captured_total, { timeout: 15_000 }).toBe(20);

  await app.goTo('Monitor');
  await expect(page.getByLabel('Watch').locator('option:checked')).toHaveText('everything');
  await page.getByRole('combobox', { name: /^Window/ }).selectOption('1h');
  await expect(page.getByTestId('monitor-requests')).toHaveText('20 (reference 0)');
  await expect(page.getByTestId('drift-alert')).toHaveCount(0);
  await page.getByLabel('Reference').selectOption('dates');
  await expect(page.getByRole('status').filter({ hasText: 'Give both the start and the end of the reference window.' })).toBeVisible();
  // Local date-times to the second, as the inputs take them.
  const local = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
  await page.getByLabel('From').fill(local(new Date(shift.getTime() - 10 * 60_000)));
  await page.getByLabel('To').fill(local(new Date(shift.getTime() - 20 * 60_000)));
  await expect(page.getByRole('status').filter({ hasText: 'The reference window must start before it ends.' })).toBeVisible();
  await page.getByLabel('To').fill(local(shift));
  // The reference holds the invoices; the last hour holds both.
  await expect(page.getByTestId('monitor-requests')).toHaveText('20 (reference 10)');
  const monitored = await call<{ questions: { question: string; drift: number | null; alert: boolean; shares: Record<string, number> }[] }>(
    'captures.monitor',
    {
      rule_id: (await call<{ id: string }[]>('captures.list', {}))[0]!.id,
      window: '1h',
      reference_from: new Date(shift.getTime() - 10 * 60_000).toISOString(),
      reference_to: shift.toISOString(),
    },
  );
  const late = monitored.questions.find((q) => q.question === 'late')!;
  expect(late.alert, `the yes-rate moved by ${late.drift}`).toBe(true);
  await expect(page.getByTestId('drift-alert')).toContainText(`“late” moved ${late.drift!.toFixed(3)} yes-rate change (alert past 0.10)`);
  await expect(page.getByRole('table', { name: 'Live answers by question' }).getByRole('row', { name: /^late/ }).locator('.badge-warn')).toHaveText('drift');
  await app.screenshotInBothThemes('monitor-drift');
  await expectAccessibleInBothThemes(page, 'Monitor, a drift alert against a reference of chosen dates');
});
