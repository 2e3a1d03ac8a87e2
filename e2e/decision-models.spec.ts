import { test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';
import { EndpointsPage } from './pages/endpoints-page';
import { EvaluationsPage } from './pages/evaluations-page';

test.use({ sandboxFailures: false });

const SET = {
  model: 'sandbox/decider',
  state: '',
  questions: {
    late: { type: 'noul', instructions: 'Did the parcel come late?' },
    mood: { type: 'choice', instructions: 'What is the mood?', criteria: { happy: null, angry: null } },
    stars: { type: 'score', instructions: 'How pleased is the customer?', criteria: ['not at all', 'somewhat', 'very'] },
  },
};
const CSV = [
  'id,state,expected.late,expected.mood,expected.stars',
  'd1,The parcel came two days late and I am angry.,true,angry,0',
  'd2,"Arrived early, lovely and happy.",false,happy,2',
  'd3,Late again and angry.,true,angry,0',
  'd4,On time and happy with it.,false,happy,2',
].join('\n');

test('an analyst puts a native decision model beside a chat model on one dataset and sees how each answer was measured', async ({ page, server }) => {
  test.setTimeout(90_000);
  const app = new AppPage(page);
  const evals = new EvaluationsPage(page);
  await app.open(server.uiUrl);
  const saved = await page.request.post(`${server.url}/api/inspector/sets.save`, {
    headers: { 'x-verdict-client': 'renderer' },
    data: { name: 'Parcels', request: SET },
  });
  expect(saved.ok()).toBe(true);

  await app.goTo('Evaluations');
  await evals.datasetFile.setInputFiles({ name: 'parcels.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
  await evals.importButton.click();
  await expect(page.getByTestId('import-result')).toContainText('Imported 4 items');
  await evals.open('New run');

  // The picker says which models answer natively and which are asked by a method here.
  const choice = (id: string) => page.locator('label.inline-check', { has: evals.model(id) });
  await expect(choice('sandbox/decider')).toContainText('native');
  await expect(choice('sandbox/decider')).toHaveAttribute('title', 'decision model: answered natively by its hosts');
  await expect(choice('sandbox/baseline-text')).toContainText('by method');
  // Decision models listed without a key wait behind a fold, so the first choices are the ones that work.
  const keyless = page.getByText(/^\d+ more that need a provider key \(Settings\)$/);
  await expect(keyless).toBeVisible();
  await expect(evals.model('typesafe/jev-1.13')).toBeHidden();
  await keyless.click();
  await expect(choice('typesafe/jev-1.13')).toHaveAttribute('title', 'decision model: answered natively by its hosts · needs a provider key (Settings)');
  await keyless.click();

  await evals.model('sandbox/baseline-text').check();
  await evals.model('sandbox/decider').check();
  await page.getByLabel('Run name (optional)').fill('Native beside a method');
  await evals.startButton.click();
  await expect(page.getByRole('heading', { level: 2, name: 'Native beside a method · done' })).toBeVisible({ timeout: 60_000 });
  await expect(evals.metric('sandbox/decider', 'late', 'accuracy')).toHaveText(/^\d\.\d{3}$/);
  await expect(evals.metric('sandbox/baseline-text', 'late', 'accuracy')).toHaveText(/^\d\.\d{3}$/);
  await app.screenshot('decision-model-beside-chat-model');

  // An item's answers say how each model's were measured.
  await evals.results.getByRole('button', { name: 'd1' }).click();
  const answers = page.getByRole('table', { name: 'Answers of each model' });
  await expect(answers.getByRole('row').filter({ hasText: 'sandbox/decider' })).toContainText('late: the decision host itself (passed through)');
  await expect(answers.getByRole('row').filter({ hasText: 'sandbox/baseline-text' })).toContainText('late: token probabilities');
  await answers.scrollIntoViewIfNeeded();
  await app.screenshot('decision-model-item-methods');

  // Endpoints lists the decision model's hosts, one of each wire family, with what each takes.
  await app.goTo('Endpoints');
  await page.getByLabel('Model', { exact: true }).selectOption('sandbox/decider');
  const endpoints = new EndpointsPage(page);
  for (const tag of ['sandbox-oracle', 'sandbox-verity', 'sandbox-arbiter']) await expect(endpoints.row(tag)).toBeVisible();
  const built = page.getByRole('table', { name: 'How requests are built' });
  await expect(built.locator('tr[data-tag="sandbox-verity"]')).toContainText('System One at /systemone · noul, choice, score · no images');
  await expect(built.locator('tr[data-tag="sandbox-arbiter"]')).toContainText('OpenAI Decisions at /decisions');
  await expect(built.locator('tr[data-tag="sandbox-arbiter"]')).toContainText('at most 400 questions · 2–255 choices · 2+ levels');
  await expect(built.locator('tr[data-tag="sandbox-oracle"]')).toContainText('noul, choice, score, box · images as parts of the state');
  await built.scrollIntoViewIfNeeded();
  await app.screenshot('decision-model-endpoints');
  // Measured like any other: a one-question Decisions request to each host.
  await page.getByRole('button', { name: 'Measure now' }).click();
  await expect.poll(async () => (await endpoints.columnValues('TTFT s p50 / p90')).filter((v) => v !== '—').length, { timeout: 20_000 }).toBe(3);

  await page.request.post(`${server.url}/api/inspector/settings.update`, { headers: { 'x-verdict-client': 'renderer' }, data: { theme: 'dark' } });
  await page.reload();
  await page.getByLabel('Model', { exact: true }).selectOption('sandbox/decider');
  await expect(built.locator('tr[data-tag="sandbox-verity"]')).toBeVisible();
  await built.scrollIntoViewIfNeeded();
  await app.screenshot('decision-model-endpoints-dark');
});
