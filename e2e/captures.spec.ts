import { expectAccessibleInBothThemes } from './fixtures/axe';
import { test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';
import { EvaluationsPage } from './pages/evaluations-page';
import { SettingsPage } from './pages/settings-page';

// Answers every time: the journey counts what was captured.
test.use({ sandboxFailures: false });

const DECISION = {
  model: 'sandbox/baseline-text',
  state: 'The parcel came two days late.',
  questions: { late: { type: 'noul', instructions: 'Was it late?' } },
};

test("a capture rule for a key turns that key's Decisions requests into items of its dataset, which stay when the rule goes", async ({
  page,
  server,
  request,
}) => {
  // Two screens, a capture waited for, and axe in both themes: more than the default 30 s on a loaded machine.
  test.setTimeout(90_000);
  const app = new AppPage(page);
  const settings = new SettingsPage(page);
  await app.open(server.uiUrl);
  await app.goTo('Settings');
  await expect(settings.captures.getByText('No capture rules')).toBeVisible();
  const key = await settings.createApiKey('capture job');

  await settings.makeCaptureRule({ name: 'late parcels', keys: ['capture job'] });
  const rule = settings.captureRuleRow('late parcels');
  await expect(rule).toContainText('Keys: capture job');
  await expect(rule).toContainText('100%');
  await expect(rule).toContainText('0 of 1,000 today');
  await expect(rule).toContainText('30 days');
  await expect(rule).toContainText('not kept');
  await expect(rule).toContainText('Captured: late parcels');
  await expect(page.getByLabel('Rule name')).toHaveValue('');
  await expect(page.getByLabel('Rule name')).toBeFocused();

  const headers = { Authorization: `Bearer ${key}` };
  expect((await request.post(`${server.url}/api/alpha/decisions`, { headers, data: DECISION })).status()).toBe(200);
  // Asked not to be captured: never is.
  expect((await request.post(`${server.url}/api/alpha/decisions`, { headers: { ...headers, 'x-verdict-capture': 'off' }, data: DECISION })).status()).toBe(200);
  // Written within 200 ms; the panel reads its rules again every 5 s while there are any.
  await expect(rule.getByTestId('captured-today')).toHaveText('1 of 1,000 today', { timeout: 15_000 });
  await expect(rule.getByRole('cell').nth(5)).toHaveText('1');
  await app.screenshotInBothThemes('captures-panel', settings.captures);
  await expectAccessibleInBothThemes(page, 'Settings, a capture rule that captured');

  // The Monitor reads what the rule captured: the one answer in the last day, nothing before it to drift from.
  await settings.captures.getByRole('link', { name: 'Monitor' }).click();
  await expect(app.heading).toHaveText('Monitor');
  await expect(page.getByLabel('Watch').locator('option:checked')).toHaveText('late parcels');
  await expect(page.getByTestId('monitor-requests')).toHaveText('1 (reference 0)');
  const late = page.getByRole('table', { name: 'Live answers by question' }).getByRole('row', { name: /late/ });
  await expect(late).toContainText(/(yes|no) 100\.0%/);
  await expect(late).toContainText('— (a window has no answers)');

  await app.goTo('Evaluations');
  await new EvaluationsPage(page).open('Datasets');
  const dataset = page.getByRole('list', { name: 'Datasets' }).getByRole('listitem').filter({ hasText: 'Captured: late parcels' });
  await expect(dataset).toContainText('1 items');

  await app.goTo('Settings');
  const asked = await settings.removeCaptureRule('late parcels');
  expect(asked).toContain('The 1 item it captured stay in the dataset “Captured: late parcels”');
  await expect(rule).toHaveCount(0);
  await expect(settings.captures.getByText('No capture rules')).toBeVisible();
  await app.goTo('Evaluations');
  await new EvaluationsPage(page).open('Datasets');
  await expect(dataset).toContainText('1 items');
});

test('a condition outside the cascade grammar is refused, the server naming `when` beside the field', async ({ page, server }) => {
  test.setTimeout(60_000);
  const app = new AppPage(page);
  const settings = new SettingsPage(page);
  await app.open(server.uiUrl);
  await app.goTo('Settings');
  await settings.makeCaptureRule({ name: 'unsure', condition: '{"confidenceAbove": 0.6}' });
  const condition = page.getByLabel('Condition (JSON)');
  await expect(condition).toHaveAttribute('aria-invalid', 'true');
  await expect(condition).toHaveAccessibleDescription(/when: a condition is one of \{confidenceBelow\}/);
  await expect(condition).toBeFocused();
  await expect(settings.captures.locator('.notice-error')).toContainText('Rule not made');
  await expect(settings.captures.locator('.notice-error')).toContainText('Invalid input for captures.create: when: a condition is one of');
  await expect(settings.captures.getByText('No capture rules')).toBeVisible();
  await app.screenshotInBothThemes('captures-refused', settings.captures);
  await expectAccessibleInBothThemes(page, 'Settings, a capture rule refused');

  // JSON that does not parse is named before anything is sent; a valid condition then makes the rule.
  await condition.fill('{confidenceBelow: 0.6}');
  await settings.captures.getByRole('button', { name: 'Make rule' }).click();
  await expect(condition).toHaveAccessibleDescription(/when: not valid JSON/);
  await condition.fill('{"confidenceBelow": 0.6}');
  await settings.captures.getByRole('button', { name: 'Make rule' }).click();
  await expect(settings.captureRuleRow('unsure')).toContainText('When: any choice, score or box question: confidence below 0.6');
  await expect(condition).not.toHaveAttribute('aria-invalid');
  await app.screenshotInBothThemes('captures-condition', settings.captures);
});
