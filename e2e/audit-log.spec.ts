import { test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';
import { SettingsPage } from './pages/settings-page';
import { SignInPage } from './pages/sign-in-page';

test('a person signs in with their own management key, creates and revokes a key, and the audit log names them for both', async ({ page, server, request }) => {
  const headers = { Authorization: `Bearer ${server.managementKey}` };
  const make = async (name: string, kind: 'standard' | 'management') =>
    ((await (await request.post(`${server.url}/api/v1/keys`, { headers, data: { name, kind } })).json()) as { key: string }).key;
  const ada = await make('Ada Lovelace', 'management');
  const job = await make('nightly job', 'standard');

  const signIn = new SignInPage(page);
  const app = new AppPage(page);
  await page.goto(server.url);
  await expect(signIn.heading).toBeVisible();
  await expect(signIn.key).toHaveAttribute('type', 'password');
  await app.screenshot('sign-in');

  // A standard key is refused, saying why; so is a key that is not this server's.
  await signIn.signIn(job);
  await expect(signIn.refusal).toContainText('A standard key cannot sign in');
  await signIn.signIn(`${ada.slice(0, -4)}AAAA`);
  await expect(signIn.refusal).toContainText('That key was not recognised');
  await app.screenshot('sign-in-refused');

  await signIn.signIn(ada);
  await app.nav.waitFor();
  await expect(signIn.badge).toContainText('Signed in as Ada Lovelace');
  // The key is in no storage the page can read.
  const stored = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie }));
  // The secret is everything after the key's id (base64url: it may itself hold a '-').
  expect(stored).not.toContain(ada.split('-').slice(2).join('-'));

  await app.goTo('Settings');
  const settings = new SettingsPage(page);
  await settings.createApiKey('ci runner');
  await settings.revokeApiKey('ci runner');

  const rows = settings.auditRows();
  await expect(rows.nth(0)).toContainText('Ada Lovelace');
  await expect(rows.nth(0)).toContainText('revoked key');
  await expect(rows.nth(0)).toContainText('ci runner');
  await expect(rows.nth(1)).toContainText('Ada Lovelace');
  await expect(rows.nth(1)).toContainText('created key');
  await expect(rows.nth(1)).toContainText('ci runner');
  // Before them: the keys the first start's management key made over the public API, under its name.
  await expect(rows.nth(2)).toContainText('Initial management key');
  await expect(rows.nth(2)).toContainText('nightly job');
  await app.screenshotOf(page.getByRole('region', { name: 'Audit log' }), 'audit-log');

  await signIn.signOut();
  await expect(signIn.heading).toBeVisible();

  // Signed in again, and the key revoked meanwhile by someone else: the next call returns to the sign-in screen, saying why.
  await signIn.signIn(ada);
  await app.nav.waitFor();
  const adaId = ada.split('-')[1]!;
  expect((await request.delete(`${server.url}/api/v1/keys/${adaId}`, { headers })).status()).toBe(200);
  // The next call is the one this click makes, or one the screen makes of its own before the click
  // lands (then the navigation is gone and the click has nothing to press): either returns to the sign-in screen.
  await Promise.race([
    app
      .navLink('Runs')
      .click()
      .catch(() => undefined),
    signIn.heading.waitFor(),
  ]);
  await expect(signIn.heading).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'you signed in with was revoked' })).toBeVisible();
});
