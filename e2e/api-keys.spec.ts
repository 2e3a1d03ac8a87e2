import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBuiltServer, test, expect } from './fixtures/server';
import { AppPage } from './pages/app-page';

const CLI = join(import.meta.dirname, '..', 'dist', 'server', 'cli.mjs');

// One server for these journeys: each names its own keys (the last starts servers of its own).
test.use({ shareServer: true });

test('an API key created in Settings works against the public API until it is revoked', async ({ page, server, request }) => {
  const app = new AppPage(page);
  await app.open(server.uiUrl);
  await app.goTo('Settings');
  await page.getByLabel('Name', { exact: true }).fill('nightly job');
  await page.getByRole('button', { name: 'Create key' }).click();
  const created = page.getByTestId('created-api-key');
  await expect(created).toHaveText(/^vd-[0-9a-f]{12}-[\w-]{43}$/);
  const key = (await created.textContent())!;
  await app.screenshot('settings-api-key-created');

  const zdr = await request.get(`${server.url}/api/v1/endpoints/zdr`, { headers: { Authorization: `Bearer ${key}` } });
  expect(zdr.status()).toBe(200);
  const tags = ((await zdr.json()) as { data: { tag: string }[] }).data.map((e) => e.tag);
  expect(tags).toContain('sandbox-swift');
  expect(tags).not.toContain('sandbox-bargain');

  await page.getByRole('button', { name: 'Done' }).click();
  await expect(created).toHaveCount(0);
  await page.getByRole('button', { name: 'Revoke nightly job' }).click();
  await expect(
    page
      .getByRole('table', { name: 'API server keys' })
      .getByRole('row', { name: /nightly job/ })
      .getByText('revoked'),
  ).toBeVisible();
  const refused = await request.get(`${server.url}/api/v1/endpoints/zdr`, { headers: { Authorization: `Bearer ${key}` } });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error.code).toBe(401);
});

test('keys are managed from the command line too', async ({ server, request }) => {
  const run = (...args: string[]) =>
    execFileSync(process.execPath, [CLI, ...args, '--data-dir', server.dataDir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const created = run('keys', 'create', '--name', 'cli job', '--kind', 'standard');
  const key = /^(vd-[0-9a-f]{12}-[\w-]{43})$/m.exec(created)?.[1];
  expect(key).toBeDefined();
  const id = key!.split('-')[1]!;
  expect(run('keys', 'list')).toMatch(new RegExp(`${id}\\s+standard\\s+active\\s+\\$0\\s+none\\s+cli job`));
  expect((await request.get(`${server.url}/api/v1/endpoints/zdr`, { headers: { Authorization: `Bearer ${key}` } })).status()).toBe(200);
  expect(run('keys', 'revoke', id)).toContain(`Revoked ${id}`);
  // Revoked by another process, the key stops working within half a second (docs/API.md): the server rereads its keys then.
  await expect
    .poll(async () => (await request.get(`${server.url}/api/v1/endpoints/zdr`, { headers: { Authorization: `Bearer ${key}` } })).status(), { intervals: [100] })
    .toBe(401);
  expect(() => run('keys', 'create')).toThrow(/keys create needs --name/);
});

test('the management key printed at first start can manage keys over HTTP', async ({ server, request }) => {
  const headers = { Authorization: `Bearer ${server.managementKey}` };
  const created = await request.post(`${server.url}/api/v1/keys`, { headers, data: { name: 'from http', kind: 'standard' } });
  expect(created.status()).toBe(201);
  const { key } = (await created.json()) as { key: string };
  const forbidden = await request.get(`${server.url}/api/v1/keys`, { headers: { Authorization: `Bearer ${key}` } });
  expect(forbidden.status()).toBe(403);
  expect((await forbidden.json()).error.message).toBe('Only management keys can perform this operation');
});

test("what a key spends is seen by the command line beside the running server, and survives the server's crash", async ({ request }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'verdict-e2e-spend-'));
  const env = { VERDICT_SANDBOX_FAILURES: 'off' };
  let { info, child } = await startBuiltServer(dataDir, env);
  try {
    const headers = { Authorization: `Bearer ${info.managementKey}` };
    const created = await request.post(`${info.url}/api/v1/keys`, { headers, data: { name: 'metered', kind: 'standard', credit_limit: 5 } });
    const { key, data } = (await created.json()) as { key: string; data: { id: string } };
    const answered = await request.post(`${info.url}/api/alpha/decisions`, {
      headers: { Authorization: `Bearer ${key}` },
      data: { model: 'sandbox/baseline-text', state: 'The parcel came two days late.', questions: { late: { type: 'noul', instructions: 'Was it late?' } } },
    });
    expect(answered.status()).toBe(200);
    const cost = ((await answered.json()) as { usage: { cost: number } }).usage.cost;
    expect(cost).toBeGreaterThan(0);
    const spent = Number(cost.toFixed(6));

    // The command line reads the keys' spend from SQLite beside the running server, which wrote it before answering.
    const list = () => execFileSync(process.execPath, [CLI, 'keys', 'list', '--data-dir', dataDir], { encoding: 'utf8' });
    await expect
      .poll(
        () =>
          list()
            .split('\n')
            .find((l) => l.startsWith(data.id)) ?? '',
        { timeout: 5_000 },
      )
      .toContain(`$${spent} of $5`);

    // A crash: no shutdown. The charge was committed before the answer left, so it is there at the next start.
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    ({ info, child } = await startBuiltServer(dataDir, env));
    const keys = await request.get(`${info.url}/api/v1/keys`, { headers });
    expect(((await keys.json()) as { data: { id: string; spent: number }[] }).data.find((k) => k.id === data.id)?.spent).toBe(spent);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
});
