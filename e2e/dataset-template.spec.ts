import { readFileSync } from 'node:fs';
import { inspector } from './fixtures/inspector';
import { test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';
import { EvaluationsPage } from './pages/evaluations-page';

test.use({ sandboxFailures: false });

test('the dataset format help offers a CSV template for the chosen set, and the template imports as it is', async ({ page, server }) => {
  const app = new AppPage(page);
  const evals = new EvaluationsPage(page);
  await app.open(server.uiUrl);
  await inspector(page, server.url)('sets.save', {
    name: 'Triage',
    request: {
      model: 'sandbox/baseline-text',
      state: '',
      questions: {
        urgent: { type: 'noul', instructions: 'Urgent?' },
        category: { type: 'choice', instructions: 'About?', criteria: { billing: null, bug: null } },
        tone: { type: 'score', instructions: 'Tone?', criteria: ['calm', 'angry'] },
      },
    },
  });
  await page.reload();
  await app.goTo('Evaluations');
  await evals.open('Datasets');
  await page.getByText('What the file looks like').click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download a CSV template for “Triage”' }).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toBe('Triage-template.csv');
  const csv = readFileSync((await file.path())!, 'utf8');
  expect(csv.split('\n')[0]).toBe('id,state,expected.urgent,expected.category,expected.tone');
  await app.screenshotInBothThemes('dataset-template', page.locator('.format-help'));
  // Imported unchanged against the same set: no problem, one labelled item.
  await evals.datasetFile.setInputFiles({ name: 'template.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await evals.importButton.click();
  await expect(page.getByTestId('import-result')).toContainText('Imported 1 item');
});

test('a file of nearly right answers imports in one action that applies every suggestion', async ({ page, server }) => {
  const app = new AppPage(page);
  const evals = new EvaluationsPage(page);
  await app.open(server.uiUrl);
  await inspector(page, server.url)('sets.save', {
    name: 'Triage',
    request: {
      model: 'sandbox/baseline-text',
      state: '',
      questions: {
        urgent: { type: 'noul', instructions: 'Urgent?' },
        category: { type: 'choice', instructions: 'About?', criteria: { billing: null, technical: null } },
      },
    },
  });
  await page.reload();
  await app.goTo('Evaluations');
  await evals.open('Datasets');
  // As a spreadsheet writes them: "Billing", "no", "YES", "technical " for billing, false, true, technical.
  const csv = 'id,state,expected.urgent,expected.category\nt1,Charged twice.,no,Billing\nt2,App crashes.,YES,technical \nt3,Refund?,true,billing\n';
  await evals.datasetFile.setInputFiles({ name: 'tickets.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await evals.importButton.click();
  const result = page.getByTestId('import-result');
  await expect(result).toContainText('Nothing imported: 2 rows with problems');
  await expect(page.getByRole('table', { name: 'Import problems' })).toContainText('did you mean "billing"?');
  await app.screenshotInBothThemes('import-suggestions', result);
  await result.getByRole('button', { name: 'Apply the 4 suggestions and import again' }).click();
  await expect(result).toContainText('Imported 3 items, 4 answers read as suggested');
  const items = page.getByRole('table', { name: 'Items of tickets.csv' });
  await expect(items.getByRole('row').filter({ hasText: 't1' })).toContainText('category: billing');
  await expect(items.getByRole('row').filter({ hasText: 't2' })).toContainText('urgent: yes');
});
