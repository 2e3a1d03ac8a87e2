import { readFileSync } from 'node:fs';
import { test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';
import { QuestionSetsPage } from './pages/question-sets-page';

test.use({ sandboxFailures: false });

test('an analyst builds a set, sees problems live, saves, runs, compares and exports', async ({ page, server }) => {
  const app = new AppPage(page);
  const sets = new QuestionSetsPage(page);
  await app.open(server.uiUrl);
  await app.goTo('Question sets');

  await sets.name.fill('Delivery triage');
  await sets.model.fill('sandbox/baseline-text');
  await sets.state.fill('The parcel arrived two days late and the box was damaged. The customer wants a refund.');
  await sets.fillQuestion('q1', { name: 'late', instructions: 'Did the parcel arrive late?' });

  await sets.addQuestion();
  const topic = await sets.fillQuestion('q2', { name: 'topic', type: 'choice', instructions: 'What is the message about?' });
  await topic.getByLabel('Option 1 name').fill('refund');
  await topic.getByLabel('Option 1 guidance').fill('customer wants a refund for a damaged parcel');
  await topic.getByLabel('Option 2 name').fill('praise');
  await expect(sets.validity).toHaveText('valid request');

  await sets.addQuestion();
  const severity = await sets.fillQuestion('q3', { name: 'severity', type: 'score', instructions: 'How severe is the problem?' });
  // Empty levels are allowed guidance, but a score with no levels is not: remove both and see the problem named.
  await severity.getByRole('button', { name: 'Remove level 1' }).click();
  await severity.getByRole('button', { name: 'Remove level 0' }).click();
  await expect(severity.getByRole('alert')).toContainText('Question “severity”, levels or options');
  await expect(sets.validity).toHaveText(/problem/);
  await severity.getByRole('button', { name: 'Add level' }).click();
  await severity.getByRole('button', { name: 'Add level' }).click();
  await severity.getByLabel('Level 0', { exact: true }).fill('damaged parcel and refund');
  await severity.getByLabel('Level 1', { exact: true }).fill('no problem');
  // Reorder by keyboard: the severe level goes last.
  await severity.getByLabel('Level 0', { exact: true }).press('Alt+ArrowDown');
  await expect(severity.getByLabel('Level 0', { exact: true })).toHaveValue('no problem');
  await expect(severity.getByLabel('Level 1', { exact: true })).toHaveValue('damaged parcel and refund');

  await expect(page.getByRole('list', { name: 'Endpoints of sandbox/baseline-text' })).toContainText('Swift (simulated)');
  // The form writes the JSON: pick zdr and a sort, see them in the text. The preferences are folded until opened.
  await page.getByText('Provider preferences', { exact: true }).click();
  await page.getByLabel('Zero data retention').selectOption('true');
  await expect(page.getByLabel('Provider preferences JSON')).toHaveValue(/"zdr": true/);
  await page.getByLabel('Provider preferences JSON').fill('{"sortt": "price"}');
  await expect(page.getByText('Provider preferences, “sortt”')).toBeVisible();
  await page.getByLabel('Provider preferences JSON').fill('{"sort": "price"}');
  await expect(page.getByLabel('Sort by')).toHaveValue('price');
  await expect(sets.validity).toHaveText('valid request');
  await app.screenshot('question-set-editor');

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('button', { name: /^Delivery triage sandbox/ })).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON' }).click();
  const exported = JSON.parse(readFileSync(await (await download).path(), 'utf8'));
  expect(exported).toMatchObject({
    model: 'sandbox/baseline-text',
    provider: { sort: 'price' },
    questions: { late: { type: 'noul' }, topic: { type: 'choice' }, severity: { type: 'score', criteria: ['no problem', 'damaged parcel and refund'] } },
  });

  // Run answers here, in the grid beside the set; the run opens in Runs from there.
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('table', { name: 'Examples and answers' }).locator('td.try-cell')).toContainText('late:', { timeout: 15_000 });
  await page.getByRole('link', { name: 'Open in Runs', exact: true }).click();
  await expect(page).toHaveURL(/#\/runs\?run=run-/);
  await expect(page.getByText(/Run “Delivery triage” · done/)).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('meter', { name: 'P(true) for late' })).toBeVisible();
  const topicAnswer = page.getByRole('region', { name: 'Answer topic' });
  await expect(topicAnswer.locator('.bar-row.chosen')).toContainText('refund');
  const severityAnswer = page.getByRole('region', { name: 'Answer severity' });
  await expect(severityAnswer).toContainText('Expected level');
  await expect(severityAnswer).toContainText('1 · damaged parcel and refund');
  await expect(page.locator('dl.facts')).toContainText('(simulated)');
  await app.screenshot('run-answers');

  // Compare: the same set on two models, side by side.
  await app.goTo('Question sets');
  await page.getByRole('button', { name: /^Delivery triage sandbox/ }).click();
  await expect(sets.name).toHaveValue('Delivery triage');
  await sets.alsoRunOn(['sandbox/baseline-vision']);
  await page.getByRole('button', { name: 'Run on 2 models' }).click();
  await page.getByRole('link', { name: 'Compare in Runs', exact: true }).click();
  await expect(page).toHaveURL(/compare=/);
  const compared = page.getByRole('table', { name: 'Compared runs' });
  await expect(compared.locator('thead')).toContainText('sandbox/baseline-text');
  await expect(compared.locator('thead')).toContainText('sandbox/baseline-vision');
  await expect(compared.getByRole('row', { name: /^cost/ })).toContainText('$', { timeout: 15_000 });
  await app.screenshot('runs-compare');
});

test('deleting a set can be undone', async ({ page, server }) => {
  const app = new AppPage(page);
  const sets = new QuestionSetsPage(page);
  await app.open(server.uiUrl);
  await app.goTo('Question sets');
  await sets.name.fill('Throwaway');
  await sets.model.fill('sandbox/baseline-text');
  await sets.state.fill('x');
  await sets.fillQuestion('q1', { instructions: 'y?' });
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('button', { name: 'Delete Throwaway' }).click();
  await expect(page.getByRole('button', { name: /^Throwaway/ })).toHaveCount(0);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('button', { name: /^Throwaway/ })).toBeVisible();
});

test('a set run with a cascade preset says the second model answered, and costs both stages', async ({ page, server }) => {
  const app = new AppPage(page);
  const sets = new QuestionSetsPage(page);
  await app.open(server.uiUrl);
  // A preset whose condition always holds on a yes/no question: the second model answers every time.
  const saved = await page.request.post(`${server.url}/api/inspector/cascadePresets.save`, {
    headers: { 'x-verdict-client': 'renderer' },
    data: { name: 'always-escalate', model: 'sandbox/sharp-large', when: { probabilityBetween: [0, 1] } },
  });
  expect(await saved.text()).toContain('always-escalate');
  // The screen listed the presets when it opened: read again.
  await page.reload();
  await app.goTo('Question sets');
  await sets.name.fill('Cascaded triage');
  await sets.model.fill('sandbox/cheap-mini');
  await sets.state.fill('The parcel arrived two days late.');
  await sets.fillQuestion('q1', { name: 'late', instructions: 'Did the parcel arrive late?' });
  const select = page.getByLabel('Cascade preset');
  await expect(select.locator('option', { hasText: 'always-escalate' })).toHaveText(/sandbox\/cheap-mini → sandbox\/sharp-large, when/);
  await select.selectOption('always-escalate');
  await app.screenshot('question-set-cascade');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('button', { name: /^Cascaded triage sandbox/ })).toBeVisible();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.locator('.try-cell').first()).toContainText('answered by sandbox/sharp-large (escalated)');
  await expect(page.locator('.try-cell').first()).toContainText('for both stages');
});
