import { expectAccessibleInBothThemes } from './fixtures/axe';
import { inspector } from './fixtures/inspector';
import { test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';
import { ReviewPage } from './pages/review-page';

// Answers every time: the journey counts what was sent to people.
test.use({ sandboxFailures: false });

const QUESTIONS = { late: { type: 'noul', instructions: 'Did the parcel arrive late?' } };

test("the human stage's queue on Review: what each preset sent to people, how long the oldest has waited, and what was answered", async ({ page, server }) => {
  test.setTimeout(60_000);
  const app = new AppPage(page);
  const review = new ReviewPage(page);
  await app.open(server.uiUrl);
  const call = inspector(page, server.url);
  await call('cascadePresets.save', { name: 'ask a person', model: 'human', first_model: null, when: { question: 'late', probabilityBetween: [0, 1] } });
  const { key } = await call<{ key: string }>('apiKeys.create', { name: 'traffic' });
  const send = async (cascade: unknown) => {
    const data = { model: 'sandbox/baseline-text', state: 'The parcel arrived late.', questions: QUESTIONS, cascade };
    const response = await page.request.post(`${server.url}/api/alpha/decisions`, { headers: { Authorization: `Bearer ${key}` }, data });
    expect(response.status(), await response.text()).toBe(200);
    expect(((await response.json()) as { provisional?: boolean }).provisional).toBe(true);
  };
  // Two through the preset, one naming the human stage itself.
  await send('ask a person');
  await send('ask a person');
  await send({ model: 'human', when: { question: 'late', probabilityBetween: [0, 1] } });

  await app.goTo('Review');
  await review.dataset.selectOption('ds-human-review');
  const queue = page.getByRole('table', { name: 'Human review queue by preset' });
  await expect(queue.getByRole('row', { name: /^preset “ask a person”/ })).toContainText(/^preset “ask a person”2\d+ s0$/);
  await expect(queue.getByRole('row', { name: /^In all/ })).toContainText(/^In all3\d+ s0$/);
  await app.screenshotInBothThemes('review-human-queue');
  await expectAccessibleInBothThemes(page, 'Review, the human stage queue by preset');

  // A person answers the first one: the preset's row moves within the figures' 10 s refresh.
  await expect(review.itemHeading(1)).toBeFocused();
  await page.keyboard.press('y');
  await page.keyboard.press('Enter');
  await expect(review.committedHeading(1)).toBeVisible();
  await expect(queue.getByRole('row', { name: /^In all/ })).toContainText(/^In all2\d+ s1$/, { timeout: 15_000 });
  const figures = await call<{ by_preset: { preset: string; pending: number; reviewed_last_hour: number }[] }>('review.queue', {});
  expect(figures.by_preset).toEqual([expect.objectContaining({ preset: 'ask a person', pending: 1, reviewed_last_hour: 1 })]);
});
