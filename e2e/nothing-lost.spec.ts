import { test, expect } from './fixtures/server';
import { holdAnswer } from './fixtures/held-answer';
import { AppPage } from './pages/app-page';
import { QuestionSetsPage } from './pages/question-sets-page';

test.use({ sandboxFailures: false });

test('edits to a set survive leaving the screen, and a new set is not thrown away without asking', async ({ page, server }) => {
  const app = new AppPage(page);
  const sets = new QuestionSetsPage(page);
  await app.open(server.uiUrl);
  await app.goTo('Question sets');
  await sets.name.fill('Kept set');
  await sets.model.fill('sandbox/baseline-text');
  await sets.state.fill('The parcel came late.');
  await sets.fillQuestion('q1', { name: 'late', instructions: 'Was it late?' });
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('button', { name: /^Kept set sandbox/ })).toBeVisible();

  // Unsaved edits, then away with Alt+2 and back with the sidebar: the draft is restored.
  await sets.state.fill('The parcel came three days late.');
  await expect(page.getByRole('note').filter({ hasText: 'unsaved changes' })).toBeVisible();
  await page.keyboard.press('Alt+2');
  await expect(app.heading).toHaveText('Runs');
  await app.goTo('Question sets');
  await expect(sets.state).toHaveValue('The parcel came three days late.');
  await expect(sets.name).toHaveValue('Kept set');
  // A reload keeps it too.
  await page.reload();
  await expect(sets.state).toHaveValue('The parcel came three days late.');

  // "New set", then edits; "New set" again asks first, and dismissing keeps them.
  await page.getByRole('button', { name: 'New set' }).click();
  await sets.name.fill('Unsaved idea');
  await sets.state.fill('Something to judge');
  let asked = '';
  page.once('dialog', (dialog) => {
    asked = dialog.message();
    void dialog.dismiss();
  });
  await page.getByRole('button', { name: 'New set' }).click();
  expect(asked).toContain('Discard the unsaved new set “Unsaved idea”');
  await expect(sets.name).toHaveValue('Unsaved idea');

  // The saved set's draft is still there when it is opened again.
  await page.getByRole('button', { name: /^Kept set sandbox/ }).click();
  await expect(sets.state).toHaveValue('The parcel came three days late.');
  await app.screenshot('question-set-draft');
});

test('a blank state or instruction is a problem beside its field once edited or on Save, and Run is disabled; a set without content can still be saved', async ({
  page,
  server,
}) => {
  const app = new AppPage(page);
  const sets = new QuestionSetsPage(page);
  await app.open(server.uiUrl);
  await app.goTo('Question sets');
  await sets.model.fill('sandbox/baseline-text');
  // A new set shows its problems once a field is edited, or on Save: a blank form is not "2 problems".
  await expect(sets.validity).toHaveText('new set: write content and a question');
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeDisabled();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(sets.validity).toHaveText(/problem/);
  await expect(page.getByText('State: Write the content to judge in State, or add an image, to run the set here')).toBeVisible();
  await expect(sets.question('q1').getByRole('alert')).toContainText('Question “q1”, instructions: Write what the question asks');
  expect(
    await (await page.request.post(`${server.url}/api/inspector/sets.list`, { headers: { 'x-verdict-client': 'renderer' }, data: {} })).json(),
  ).toMatchObject({ data: [] });
  await sets.state.fill('   ');
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeDisabled();
  // Questions without content: a set for Evaluations (content comes from each item) saves, but does not run.
  await sets.fillQuestion('q1', { instructions: 'Was it late?' });
  await expect(sets.validity).toHaveText('no content: can be saved, not run');
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeEnabled();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved.', { exact: true })).toBeVisible();
  await sets.state.fill('The parcel came late.');
  await expect(sets.validity).toHaveText('valid request');
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
});

test("problems are named in the form's words and say how to fix them", async ({ page, server }) => {
  const app = new AppPage(page);
  const sets = new QuestionSetsPage(page);
  await app.open(server.uiUrl);
  await app.goTo('Question sets');
  await sets.model.fill('sandbox/baseline-text');
  await sets.state.fill('The parcel came late.');
  await sets.fillQuestion('q1', { instructions: 'Was it late?' });
  await sets.addQuestion();
  const q2 = await sets.fillQuestion('q2', { type: 'choice', instructions: 'Which topic?' });
  await q2.getByLabel('Option 1 name').fill('refund');
  // Option 2 has no name.
  await expect(q2.getByRole('alert')).toContainText('Question “q2”, options: Give every option a name, or remove the empty option.');
  await expect(page.locator('.field-problems')).not.toContainText('Invalid key');
  await expect(page.locator('.field-problems')).not.toContainText('criteria[');
  await app.screenshot('question-set-problems');
});

test('a set whose save is answered after another set was opened keeps its own content, and so does the other', async ({ page, server }) => {
  const app = new AppPage(page);
  const sets = new QuestionSetsPage(page);
  await app.open(server.uiUrl);
  await app.goTo('Question sets');
  const create = async (name: string, state: string) => {
    await page.getByRole('button', { name: 'New set' }).click();
    await sets.name.fill(name);
    await sets.model.fill('sandbox/baseline-text');
    await sets.state.fill(state);
    await sets.fillQuestion('q1', { name: 'late', instructions: 'Was it late?' });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('button', { name: new RegExp(`^${name} sandbox`) })).toBeVisible();
  };
  await create('Parcels', 'The parcel came late.');
  await create('Letters', 'The letter came on time.');

  // Parcels is edited and saved; its answer is held back while the analyst opens Letters.
  await page.getByRole('button', { name: /^Parcels sandbox/ }).click();
  await expect(sets.state).toHaveValue('The parcel came late.');
  await sets.state.fill('The parcel came two days late.');
  const lateSave = await holdAnswer(page, 'sets.save');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('button', { name: /^Letters sandbox/ }).click();
  await expect(sets.name).toHaveValue('Letters');
  await lateSave.release();
  // Still Letters on screen, and saving it saves Letters.
  await expect(sets.name).toHaveValue('Letters');
  await sets.state.fill('The letter came a day early.');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved.', { exact: true })).toBeVisible();

  const api = async (op: string, data: object) => {
    const body = (await (await page.request.post(`${server.url}/api/inspector/${op}`, { headers: { 'x-verdict-client': 'renderer' }, data })).json()) as {
      ok: boolean;
      data: unknown;
    };
    expect(body.ok).toBe(true);
    return body.data;
  };
  const list = (await api('sets.list', {})) as { id: string; name: string }[];
  expect(list.map((s) => s.name).sort()).toEqual(['Letters', 'Parcels']);
  const stateOf = async (name: string) =>
    ((await api('sets.get', { id: list.find((s) => s.name === name)!.id })) as { request: { state: string } }).request.state;
  expect(await stateOf('Parcels')).toBe('The parcel came two days late.');
  expect(await stateOf('Letters')).toBe('The letter came a day early.');
});

test('emptying the model field to type another keeps exactly what is typed, not the first model offered before it', async ({ page, server }) => {
  const app = new AppPage(page);
  const sets = new QuestionSetsPage(page);
  await app.open(server.uiUrl);
  await app.goTo('Question sets');
  // A new set is offered the first model of the list once it arrives.
  await expect(sets.model).toHaveValue('sandbox/baseline-text');
  await sets.model.fill('');
  await expect(sets.model).toHaveValue('');
  await sets.model.pressSequentially('sandbox/sharp-large');
  await expect(sets.model).toHaveValue('sandbox/sharp-large');
});
