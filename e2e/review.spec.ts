import { expectAccessibleInBothThemes } from './fixtures/axe';
import { inspector } from './fixtures/inspector';
import { test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';
import { ReviewPage } from './pages/review-page';
import { SettingsPage } from './pages/settings-page';

// Answers every time: the journey counts what was captured.
test.use({ sandboxFailures: false });

const QUESTIONS = {
  late: { type: 'noul', instructions: 'Late?' },
  mood: { type: 'choice', instructions: 'Mood?', criteria: { calm: null, angry: null } },
};

/** What the reviewer gives each item, by position: yes/no and the option's digit; one skipped (and answered at the end), one flagged. */
const PLAN: ('skip' | 'flag' | { late: boolean; mood: 'calm' | 'angry' })[] = Array.from({ length: 10 }, (_, i) =>
  i === 2 ? 'skip' : i === 4 ? 'flag' : { late: i % 2 === 0, mood: i % 3 === 0 ? 'angry' : 'calm' },
);

test('a reviewer labels ten captured items with the keyboard, seeing the model’s answer only once theirs is in', async ({ page, server, request }) => {
  // Ten captures waited for, twenty key presses and axe in both themes: more than the default 30 s on a loaded machine.
  test.setTimeout(120_000);
  const app = new AppPage(page);
  const settings = new SettingsPage(page);
  const review = new ReviewPage(page);
  await app.open(server.uiUrl);
  await app.goTo('Settings');
  const key = await settings.createApiKey('review job');
  await settings.makeCaptureRule({ name: 'parcels', keys: ['review job'] });
  const rule = settings.captureRuleRow('parcels');
  await expect(rule).toContainText('Captured: parcels');
  const headers = { Authorization: `Bearer ${key}` };
  for (let i = 1; i <= 10; i += 1) {
    const data = { model: 'sandbox/decider', state: `Parcel ${i} came ${i} days late; the customer wrote again.`, questions: QUESTIONS };
    expect((await request.post(`${server.url}/api/alpha/decisions`, { headers, data })).status()).toBe(200);
  }
  await expect(rule.getByTestId('captured-today')).toHaveText('10 of 1,000 today', { timeout: 20_000 });

  // Alt+5 opens Review on the captured dataset, its first item's heading focused, the model's answer hidden.
  await page.keyboard.press('Alt+5');
  await expect(app.heading).toHaveText('Review');
  await expect(review.dataset.locator('option:checked')).toHaveText(/^Captured: parcels/);
  await expect(review.itemHeading(1)).toBeFocused();
  await expect(review.counts).toContainText('Open10');
  await expect(review.blind).toBeChecked();
  await expect(review.question('late').getByRole('radio')).toHaveCount(2);
  await expect(review.question('mood')).toContainText('1calm');
  await expect(review.modelAnswers).toHaveCount(0);
  await app.screenshotInBothThemes('review-item');
  await expectAccessibleInBothThemes(page, 'Review, an item held');

  const answer = async (n: number, given: { late: boolean; mood: 'calm' | 'angry' }) => {
    await expect(review.itemHeading(n)).toBeFocused();
    await expect(review.modelAnswers).toHaveCount(0);
    await page.keyboard.press(given.late ? 'y' : 'n');
    await page.keyboard.press(given.mood === 'calm' ? '1' : '2');
    await expect(review.question('late').getByRole('radio', { name: given.late ? 'Yes' : 'No' })).toBeChecked();
    await expect(review.question('mood').getByRole('radio', { name: given.mood })).toBeChecked();
    await page.keyboard.press('Enter');
    await expect(review.committedHeading(n)).toBeVisible();
    await expect(review.modelAnswers).toHaveCount(2);
    await expect(review.announcements).toContainText(`Answered item ${n}; model said late: `);
  };

  for (const [position, step] of PLAN.entries()) {
    const n = position + 1;
    if (step === 'skip') {
      await expect(review.itemHeading(n)).toBeFocused();
      await page.keyboard.press('s');
      await expect(review.announcements).toContainText(`Skipped item ${n}.`);
      continue;
    }
    if (step === 'flag') {
      await expect(review.itemHeading(n)).toBeFocused();
      await page.keyboard.press('f');
      await expect(review.committedHeading(n, 'flagged')).toBeVisible();
      await expect(review.announcements).toContainText(`Flagged item ${n}; model said`);
    } else await answer(n, step);
    if (n === 2) {
      await app.screenshotInBothThemes('review-committed');
      await expectAccessibleInBothThemes(page, 'Review, an item committed beside the model’s answer');
    }
    // Any key goes on (Enter here, on Next item).
    await page.keyboard.press('Enter');
  }

  // Past the last item the skipped one comes back; with the setting off, the model's answer shows from the start.
  await expect(review.itemHeading(3)).toBeFocused();
  await expect(review.modelAnswers).toHaveCount(0);
  await review.blind.uncheck();
  await expect(review.modelAnswers).toHaveCount(2);
  await app.screenshotInBothThemes('review-prediction-shown');
  await review.itemHeading(3).focus();
  await page.keyboard.press('n');
  await page.keyboard.press('2');
  await page.keyboard.press('Enter');
  await expect(review.committedHeading(3)).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByText('No open items')).toBeVisible();
  await expect(review.counts).toContainText('Open0');
  await expect(review.counts).toContainText('Reviewed10');
  await expect(review.counts).toContainText('Flagged1');
  await app.screenshotInBothThemes('review-done');
  await expectAccessibleInBothThemes(page, 'Review, no open items');

  // The answers are the items' expected answers now; the flagged one has none.
  const call = inspector(page, server.url);
  const datasets = await call<{ id: string; name: string }[]>('datasets.list', {});
  const dataset = datasets.find((d) => d.name === 'Captured: parcels')!;
  const { items } = await call<{ items: { position: number; expected: Record<string, unknown> }[] }>('datasets.items', {
    dataset_id: dataset.id,
  });
  const byPosition = new Map(items.map((item) => [item.position, item.expected]));
  for (const [position, step] of PLAN.entries()) {
    const expected = step === 'skip' ? { late: false, mood: 'angry' } : step === 'flag' ? {} : step;
    expect(byPosition.get(position), `item ${position + 1}`).toEqual(expected);
  }
});

test('items imported without answers ask for a question set, then take score levels by digit and go on at once', async ({ page, server }) => {
  test.setTimeout(60_000);
  const app = new AppPage(page);
  const review = new ReviewPage(page);
  await app.open(server.uiUrl);
  const call = inspector(page, server.url);
  const tone = { tone: { type: 'score', instructions: 'How warm is the reply?', criteria: ['cold', 'neutral', 'warm'] } };
  const content = ['Thanks so much, that fixed it!', 'Noted.'].map((state, i) => JSON.stringify({ id: `r${i}`, state, expected: {} })).join('\n');
  const imported = await call<{ dataset: { id: string } }>('datasets.import', { name: 'replies.jsonl', format: 'jsonl', content, questions: tone });
  await call('sets.save', { name: 'Reply tone', request: { model: 'sandbox/decider', state: '', questions: tone } });

  await app.goTo('Review');
  await review.dataset.selectOption(imported.dataset.id);
  // Not captured: the server asks for a question set, and says so.
  const asked = page.locator('.notice-error');
  await expect(asked).toContainText('Choose a question set above to review these items');
  await expect(asked).toContainText('question_set_id');
  await expect(page.getByLabel('Question set')).toHaveAttribute('aria-invalid', 'true');
  await app.screenshotInBothThemes('review-question-set-asked');
  await expectAccessibleInBothThemes(page, 'Review, a question set asked for');
  await page.getByLabel('Question set').selectOption({ label: 'Reply tone' });
  await expect(review.itemHeading(1)).toBeFocused();
  await expect(page.getByText('Questions from the question set')).toBeVisible();
  await expect(review.question('tone')).toContainText('3Level 2warm');

  // No model answered these: each commit goes straight on to the next item.
  await page.keyboard.press('3');
  await page.keyboard.press('Enter');
  await expect(review.announcements).toContainText('Answered item 1; no model answer to compare.');
  await expect(review.itemHeading(2)).toBeFocused();
  // Enter with a question unanswered commits nothing, and says what is left.
  await page.keyboard.press('Enter');
  await expect(review.announcements).toContainText('Not committed: answer tone first, or flag the item with F.');
  await page.keyboard.press('1');
  await page.keyboard.press('Enter');
  await expect(page.getByText('No open items')).toBeVisible();
  const { items } = await call<{ items: { expected: Record<string, unknown> }[] }>('datasets.items', { dataset_id: imported.dataset.id });
  expect(items.map((i) => i.expected)).toEqual([{ tone: 2 }, { tone: 0 }]);
});

test('leaving Review gives the item held back at once: another reviewer gets it then, not when its ten-minute lease ends', async ({
  page,
  server,
  playwright,
}) => {
  test.setTimeout(60_000);
  const app = new AppPage(page);
  const review = new ReviewPage(page);
  await app.open(server.uiUrl);
  const call = inspector(page, server.url);
  const tone = { tone: { type: 'score', instructions: 'How warm is the reply?', criteria: ['cold', 'neutral', 'warm'] } };
  const content = ['Thanks!', 'Noted.', 'Why?'].map((state, i) => JSON.stringify({ id: `r${i}`, state, expected: {} })).join('\n');
  const imported = await call<{ dataset: { id: string } }>('datasets.import', { name: 'replies.jsonl', format: 'jsonl', content, questions: tone });
  const set = await call<{ id: string }>('sets.save', { name: 'Reply tone', request: { model: 'sandbox/decider', state: '', questions: tone } });

  // A second reviewer: another browser session, signed in with the management key.
  const other = await playwright.request.newContext({ baseURL: server.url, extraHTTPHeaders: { 'x-verdict-client': 'renderer' } });
  expect((await other.post('/api/inspector/session', { data: { key: server.managementKey } })).status()).toBe(200);
  const othersNext = async (): Promise<number | null> => {
    const response = await other.post('/api/inspector/review.next', { data: { dataset_id: imported.dataset.id, question_set_id: set.id, after: -1 } });
    const body = (await response.json()) as { data: { item: { position: number } | null } };
    return body.data.item?.position ?? null;
  };

  await app.goTo('Review');
  await review.dataset.selectOption(imported.dataset.id);
  await page.getByLabel('Question set').selectOption({ label: 'Reply tone' });
  await expect(review.itemHeading(1)).toBeFocused();
  // Held by this page: the other reviewer is given the second item.
  expect(await othersNext()).toBe(1);
  // To another screen: the first item is the other reviewer's at once.
  await app.goTo('Settings');
  await expect.poll(othersNext, { timeout: 5_000 }).toBe(0);
  const released = await other.post('/api/inspector/review.release', { data: { dataset_id: imported.dataset.id, position: 0 } });
  expect(await released.json()).toMatchObject({ ok: true, data: { released: true } });

  // Back on Review the page holds the first item again; then the tab goes elsewhere (no unmount, only pagehide).
  await app.goTo('Review');
  await expect(review.itemHeading(1)).toBeFocused();
  expect(await othersNext()).toBe(1);
  await page.goto('about:blank');
  await expect.poll(othersNext, { timeout: 5_000 }).toBe(0);
  await other.dispose();
});
