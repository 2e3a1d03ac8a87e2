import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';
import { SettingsPage } from './pages/settings-page';

const READ_OPERATIONS = ['app.info', 'settings.get', 'providers.list', 'apiKeys.list', 'models.list', 'endpoints.zdr'];

test('a stored provider key can be set and cleared but never read back by the renderer', async ({ page, server }) => {
  const secret = `sk-e2e-${Date.now().toString(36)}-do-not-leak`;
  const bodies: string[] = [];
  page.on('response', async (response) => {
    if (response.request().method() === 'POST' && response.url().includes('/api/inspector/')) bodies.push(await response.text().catch(() => ''));
  });

  const app = new AppPage(page);
  const settings = new SettingsPage(page);
  await app.open(server.uiUrl);
  await app.goTo('Settings');
  await expect(settings.keyStatus('OpenAI')).toHaveText('not set');

  await settings.storeKey('OpenAI', secret);
  await expect(settings.keyStatus('OpenAI')).toHaveText('key set');
  await expect(settings.keyInput('OpenAI')).toHaveValue('');
  await app.screenshot('settings-key-stored');

  // It really was stored, in the owner-only secrets file of this server's data directory.
  const secretsFile = join(server.dataDir, 'secrets.json');
  expect(readFileSync(secretsFile, 'utf8')).toContain(secret);
  expect(statSync(secretsFile).mode & 0o777).toBe(0o600);

  // Not through the UI: nowhere in the page's markup or visible text.
  expect(await page.content()).not.toContain(secret);
  expect(await page.locator('body').innerText()).not.toContain(secret);

  // Not through the transport: every read operation, called from the page itself.
  const answers = await page.evaluate(async (names) => {
    const results: string[] = [];
    for (const name of names) {
      const response = await fetch(`/api/inspector/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-verdict-client': 'renderer' },
        body: '{}',
      });
      results.push(`${response.status} ${await response.text()}`);
    }
    return results;
  }, READ_OPERATIONS);
  expect(answers).toHaveLength(READ_OPERATIONS.length);
  for (const answer of answers) {
    expect(answer.startsWith('200 ')).toBe(true);
    expect(answer).not.toContain(secret);
  }
  expect(answers.join('\n')).toContain('"slug":"openai"');

  // Not in the page's JS context: no global holds it.
  const globalsHoldIt = await page.evaluate((needle) => {
    const seen = new Set<unknown>();
    const search = (value: unknown, depth: number): boolean => {
      if (typeof value === 'string') return value.includes(needle);
      if (!value || typeof value !== 'object' || depth > 3 || seen.has(value)) return false;
      seen.add(value);
      for (const key of Object.keys(value)) {
        try {
          if (search((value as Record<string, unknown>)[key], depth + 1)) return true;
        } catch {
          // Some host objects throw on access; they hold nothing of ours.
        }
      }
      return false;
    };
    return Object.keys(window).some((key) => {
      try {
        return search((window as unknown as Record<string, unknown>)[key], 0);
      } catch {
        return false;
      }
    });
  }, secret);
  expect(globalsHoldIt).toBe(false);

  // Not in any storage the page can reach.
  const storage = await page.evaluate(async () => ({
    local: JSON.stringify({ ...localStorage }),
    session: JSON.stringify({ ...sessionStorage }),
    cookie: document.cookie,
    databases: JSON.stringify((await indexedDB.databases?.()) ?? []),
    caches: JSON.stringify(await caches.keys()),
  }));
  for (const value of Object.values(storage)) expect(value).not.toContain(secret);
  const cookies = await page.context().cookies();
  expect(JSON.stringify(cookies)).not.toContain(secret);
  expect(storage.cookie).toBe('');

  // Nor in any answer the UI received while all this happened.
  expect(bodies.length).toBeGreaterThan(3);
  for (const body of bodies) expect(body).not.toContain(secret);

  // The state survives a reload, and clearing removes the key from disk.
  await page.reload();
  await expect(settings.keyStatus('OpenAI')).toHaveText('key set');
  await settings.clearKey('OpenAI');
  await expect(settings.keyStatus('OpenAI')).toHaveText('not set');
  expect(readFileSync(secretsFile, 'utf8')).not.toContain(secret);
});

test('a key that breaks the rules is refused with a reason and nothing is stored', async ({ page, server }) => {
  const app = new AppPage(page);
  const settings = new SettingsPage(page);
  await app.open(server.uiUrl);
  await app.goTo('Settings');
  await settings.storeKey('Anthropic', 'has space inside');
  await expect(settings.providerRow('Anthropic').locator('.notice-error')).toContainText('a provider key has no spaces or non-ASCII characters');
  await expect(settings.keyStatus('Anthropic')).toHaveText('not set');
  await app.screenshot('settings-key-refused');
});

test('the catalog is edited in Settings; a mistake is named and nothing changes', async ({ page, server }) => {
  const app = new AppPage(page);
  await app.open(server.uiUrl);
  await app.goTo('Settings');
  const editor = page.getByLabel('Catalog JSON');
  await expect(editor).toHaveValue(/"version": 1/);
  await editor.fill(
    JSON.stringify({
      version: 1,
      models: [
        {
          id: 'lab/tiny',
          name: 'Tiny',
          created: 1,
          architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: 'text->text', instruct_type: null, tokenizer: null },
        },
      ],
      endpoints: [{ model_id: 'lab/tiny', provider: 'nobody', upstream_model: 'tiny' }],
    }),
  );
  await page.getByRole('button', { name: 'Check and save' }).click();
  await expect(page.locator('.notice-error').filter({ hasText: 'endpoints[0].provider: unknown provider "nobody"' })).toBeVisible();
  await editor.fill(
    JSON.stringify({
      version: 1,
      models: [
        {
          id: 'lab/tiny',
          name: 'Tiny',
          created: 1,
          architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: 'text->text', instruct_type: null, tokenizer: null },
        },
      ],
      endpoints: [{ model_id: 'lab/tiny', provider: 'ollama', upstream_model: 'tiny' }],
    }),
  );
  await page.getByRole('button', { name: 'Check and save' }).click();
  await expect(page.getByText('Saved: 0 providers, 1 model, 1 endpoint.')).toBeVisible();
  await app.goTo('Endpoints');
  await page.getByLabel('Model').selectOption('lab/tiny');
  // Nothing gave this endpoint a price or limits: they show as unknown, not as numbers.
  const row = page.getByRole('table', { name: 'Endpoints' }).locator('tr[data-tag="ollama"]');
  // Prompt and completion price (beside ZDR), and the context said beside the provider.
  for (const i of [1, 2]) await expect(row.locator('td').nth(i)).toHaveText('—');
  await expect(row).toContainText('context unknown');
  await expect(row).toContainText('max output unknown');
});

test('Cloudflare asks for the account id its address names, beside its key, and shows the address with it', async ({ page, server }) => {
  const app = new AppPage(page);
  await app.open(server.uiUrl);
  await app.goTo('Settings');
  const row = page.locator('tr[data-provider="cloudflare"]');
  await expect(row).toContainText('/accounts/{account_id}/ai/run');
  await expect(row.getByText('needed: its address names your account')).toBeVisible();
  // Only a provider whose address names the account has the field.
  await expect(page.locator('tr[data-provider="openai"]').getByLabel('Account id')).toHaveCount(0);
  await row.getByLabel('Account id').fill('a/b');
  await row.getByRole('button', { name: 'Save account' }).click();
  await expect(row.getByRole('alert').or(row.locator('.notice-error'))).toContainText('an account id is 1 to 64 letters, digits, dashes or underscores');
  await row.getByLabel('Account id').fill('0123456789abcdef0123456789abcdef');
  await row.getByRole('button', { name: 'Save account' }).click();
  await expect(row.getByText('account set')).toBeVisible();
  await expect(row).toContainText('/accounts/0123456789abcdef0123456789abcdef/ai/run');
  await app.screenshotOf(row, 'settings-cloudflare-account');
  // A setting, kept: there after a reload.
  await page.reload();
  await expect(page.locator('tr[data-provider="cloudflare"]').getByLabel('Account id')).toHaveValue('0123456789abcdef0123456789abcdef');
});
