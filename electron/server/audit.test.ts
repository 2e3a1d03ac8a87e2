import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditPage } from '../../shared/schemas/audit';
import { sharedPostgres, type SharedPostgres } from '../test-support/shared-postgres';
import { tempCore, tempDir, type TempCore } from '../test-support/temp-core';
import { createServerApp } from './app';
import { CLIENT_HEADER, SESSION_COOKIE, sessionCookie } from './inspector-api';
import { startServer, type RunningServer } from './start-server';

const UI_TOKEN = 'test-ui-token-0123456789';
const RENDERER = { [CLIENT_HEADER]: 'renderer', 'content-type': 'application/json' };
const REQUEST = { model: 'sandbox/baseline-text', state: 'The parcel came late.', questions: { late: { type: 'noul', instructions: 'Late?' } } };

/** The cookie a response set, as the browser would send it back (its name carries the port, if the address had one). */
function cookieOf(response: Response): string {
  const set = response.headers.get('set-cookie') ?? '';
  const match = new RegExp(`(${SESSION_COOKIE}(?:_\\d+)?)=([^;]+)`).exec(set);
  if (!match) throw new Error(`The response set no ${SESSION_COOKIE} cookie (set-cookie: "${set}")`);
  return `${match[1]}=${match[2]}`;
}

describe('signing in to the web UI with a management key, and the audit log (in process)', () => {
  let env: TempCore;
  let ui: ReturnType<typeof tempDir>;
  let app: ReturnType<typeof createServerApp>;
  let ada: { id: string; key: string };
  let standard: string;

  beforeEach(async () => {
    env = await tempCore({ sandbox: {} });
    ui = tempDir();
    app = createServerApp(env.core, { uiToken: UI_TOKEN, rendererDir: ui.path, bodyLimitBytes: 64 * 1024 });
    const created = await env.core.apiKeys.create('Ada', 'management');
    ada = { id: created.info.id, key: created.key };
    standard = (await env.core.apiKeys.create('nightly job', 'standard')).key;
  });
  afterEach(async () => {
    await env.cleanup();
    ui.cleanup();
  });

  const signIn = (key: string, headers: Record<string, string> = RENDERER) =>
    app.request('/api/inspector/session', { method: 'POST', headers, body: JSON.stringify({ key }) });
  const op = (name: string, input: unknown, cookie: string) =>
    app.request(`/api/inspector/${name}`, { method: 'POST', headers: { ...RENDERER, cookie }, body: JSON.stringify(input) });
  const bearer = (key: string) => ({ Authorization: `Bearer ${key}`, 'content-type': 'application/json' });
  const log = async (): Promise<AuditEntry[]> => (await env.core.audit.list({ offset: 0, limit: 200 })).entries;

  it('a management key signs in: an HttpOnly, SameSite=Strict cookie whose session names the key and opens the operations', async () => {
    const response = await signIn(ada.key);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, data: { kind: 'management_key', key_id: ada.id, key_name: 'Ada' } });
    const set = response.headers.get('set-cookie')!;
    expect(set).toMatch(/HttpOnly/i);
    expect(set).toMatch(/SameSite=Strict/i);
    // The cookie carries a session token, never the key.
    expect(set).not.toContain(ada.key);
    const cookie = cookieOf(response);
    const who = await app.request('/api/inspector/session', { headers: { ...RENDERER, cookie } });
    expect(await who.json()).toMatchObject({ ok: true, data: { kind: 'management_key', key_name: 'Ada' } });
    const keys = await op('apiKeys.list', {}, cookie);
    expect(keys.status).toBe(200);
    // Only a SHA-256 of the session's token is stored: found by its hash, not by the token itself.
    const token = decodeURIComponent(cookie.split('=')[1]!);
    expect(await env.core.storage.sessions.get(createHash('sha256').update(token).digest())).toMatchObject({ keyId: ada.id });
    expect(await env.core.storage.sessions.get(Buffer.from(token))).toBeUndefined();
  });

  it('refuses a standard key with 403 and says why, a wrong key with 401, a revoked key with 401 naming the revocation; and needs the client header', async () => {
    const refused = await signIn(standard);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/standard key.*management key/);
    expect(refused.headers.get('set-cookie')).toBeNull();

    const wrong = await signIn(ada.key.slice(0, -1) + (ada.key.endsWith('A') ? 'B' : 'A'));
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { message: string } }).error.message).toMatch(/not a Verdict key of this server/);

    const gone = await env.core.apiKeys.create('Bo', 'management');
    await env.core.apiKeys.revoke(gone.info.id);
    const revoked = await signIn(gone.key);
    expect(revoked.status).toBe(401);
    expect(((await revoked.json()) as { error: { message: string } }).error.message).toMatch(/"Bo" was revoked/);

    expect((await signIn(ada.key, { 'content-type': 'application/json' })).status).toBe(403);
    expect((await signIn('', RENDERER)).status).toBe(400);
  });

  it("a session stops at its next request once its key is revoked, and signing out ends it; the printed link's session still works", async () => {
    const cookie = cookieOf(await signIn(ada.key));
    expect((await op('sets.list', {}, cookie)).status).toBe(200);
    const other = await env.core.apiKeys.create('Bo', 'management');
    const revoked = await app.request(`/api/v1/keys/${ada.id}`, { method: 'DELETE', headers: bearer(other.key) });
    expect(revoked.status).toBe(200);
    const after = await op('sets.list', {}, cookie);
    expect(after.status).toBe(401);
    expect(((await after.json()) as { error: { message: string } }).error.message).toMatch(/"Ada" you signed in with was revoked/);

    const bo = cookieOf(await signIn(other.key));
    const out = await app.request('/api/inspector/session', { method: 'DELETE', headers: { ...RENDERER, cookie: bo } });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(new RegExp(`${SESSION_COOKIE}=;`));
    expect((await op('sets.list', {}, bo)).status).toBe(401);

    const printed = `${SESSION_COOKIE}=${UI_TOKEN}`;
    expect(await (await app.request('/api/inspector/session', { headers: { ...RENDERER, cookie: printed } })).json()).toEqual({
      ok: true,
      data: { kind: 'ui_token' },
    });
  });

  it('the public API logs key creation, limit changes and revocation under the bearer management key, and never the secret', async () => {
    const created = await app.request('/api/v1/keys', {
      method: 'POST',
      headers: bearer(ada.key),
      body: JSON.stringify({ name: 'ci', credit_limit: 5, rate_limit_rpm: 60 }),
    });
    expect(created.status).toBe(201);
    const { data, key } = (await created.json()) as { data: { id: string }; key: string };
    const patched = await app.request(`/api/v1/keys/${data.id}`, {
      method: 'PATCH',
      headers: bearer(ada.key),
      body: JSON.stringify({ credit_limit: null, rate_limit_rpm: 10 }),
    });
    expect(await patched.json()).toMatchObject({ data: { id: data.id, credit_limit: null, rate_limit_rpm: 10 } });
    expect((await app.request(`/api/v1/keys/${data.id}`, { method: 'DELETE', headers: bearer(ada.key) })).status).toBe(200);
    // Revoking again changes nothing, and logs nothing.
    expect((await app.request(`/api/v1/keys/${data.id}`, { method: 'DELETE', headers: bearer(ada.key) })).status).toBe(200);
    // A standard key may not change limits, and is not logged.
    expect(
      (await app.request(`/api/v1/keys/${data.id}`, { method: 'PATCH', headers: bearer(standard), body: '{"credit_limit":1,"rate_limit_rpm":null}' })).status,
    ).toBe(403);

    const actor = { kind: 'management_key', key_id: ada.id, key_name: 'Ada' };
    const target = { kind: 'key', id: data.id, name: 'ci' };
    expect((await log()).map(({ actor, action, target, details }) => ({ actor, action, target, details }))).toEqual([
      { actor, action: 'key.revoke', target, details: { kind: 'standard', label: `vd-${data.id}-…`, revoked_at: expect.any(String) } },
      {
        actor,
        action: 'key.update_limits',
        target,
        details: { before: { credit_limit: 5, rate_limit_rpm: 60 }, after: { credit_limit: null, rate_limit_rpm: 10 } },
      },
      { actor, action: 'key.create', target, details: { kind: 'standard', label: `vd-${data.id}-…`, credit_limit: 5, rate_limit_rpm: 60 } },
    ]);
    const text = JSON.stringify(await log());
    for (const secret of [key, ada.key, standard]) expect(text).not.toContain(secret.split('-').slice(2).join('-'));

    const page = (await (await app.request('/api/v1/audit?limit=1&offset=1', { headers: bearer(ada.key) })).json()) as { data: AuditPage };
    expect(page.data.total).toBe(3);
    expect(page.data.entries.map((e) => e.action)).toEqual(['key.update_limits']);
    expect((await app.request('/api/v1/audit', { headers: bearer(standard) })).status).toBe(403);
  });

  it('the browser logs sets, datasets and keys under the signed-in key, or the printed link', async () => {
    const cookie = cookieOf(await signIn(ada.key));
    const ok = async (response: Response) => {
      const body = (await response.json()) as { ok: boolean; data: { id: string; dataset?: { id: string } } };
      expect(body.ok, JSON.stringify(body)).toBe(true);
      return body.data;
    };
    const set = await ok(await op('sets.save', { name: 'Triage', request: REQUEST }, cookie));
    await ok(await op('sets.save', { id: set.id, name: 'Triage v2', request: REQUEST }, cookie));
    await ok(await op('sets.delete', { id: set.id }, cookie));
    const imported = await ok(
      await op(
        'datasets.import',
        { name: 'tickets', format: 'jsonl', content: '{"id":"a","state":"late","expected":{}}\n', questions: REQUEST.questions },
        cookie,
      ),
    );
    const datasetId = imported.dataset!.id;
    await ok(await op('datasets.updateExpected', { dataset_id: datasetId, position: 0, expected: { late: true }, questions: REQUEST.questions }, cookie));
    await ok(await op('datasets.delete', { id: datasetId }, cookie));
    const created = await ok(await op('apiKeys.create', { name: 'from the browser' }, `${SESSION_COOKIE}=${UI_TOKEN}`));

    const entries = (await log()).map((e) => ({
      who: e.actor.kind === 'management_key' ? e.actor.key_name : e.actor.kind,
      what: e.action,
      target: e.target.name,
    }));
    expect(entries).toEqual([
      { who: 'ui_token', what: 'key.create', target: 'from the browser' },
      { who: 'Ada', what: 'dataset.delete', target: 'tickets' },
      { who: 'Ada', what: 'dataset.update', target: 'tickets' },
      { who: 'Ada', what: 'dataset.import', target: 'tickets' },
      { who: 'Ada', what: 'set.delete', target: 'Triage v2' },
      { who: 'Ada', what: 'set.update', target: 'Triage v2' },
      { who: 'Ada', what: 'set.create', target: 'Triage' },
    ]);
    expect((await log())[5]!.details).toMatchObject({ name: { before: 'Triage', after: 'Triage v2' } });
    expect(created).toMatchObject({ info: { name: 'from the browser' } });
    // The audit log is an operation too, filtered by who and what.
    const mine = await ok(await op('audit.list', { actor_key_id: ada.id, target_kind: 'dataset' }, cookie));
    expect(mine).toMatchObject({ total: 3 });
  });
});

/** Two instances on one Postgres, as a team runs them behind a load balancer: sessions are stored, so either knows them. */
describe('web UI sessions across instances on one Postgres (real HTTP)', () => {
  let postgres: SharedPostgres;
  const servers: RunningServer[] = [];
  const dirs: { cleanup(): void; path: string }[] = [];

  async function instance(database: string): Promise<RunningServer> {
    const [data, renderer] = [tempDir(), tempDir()];
    dirs.push(data, renderer);
    const server = await startServer({
      port: 0,
      host: '127.0.0.1',
      dataDir: data.path,
      rendererDir: renderer.path,
      database,
      version: 'test',
      overrideGlobalObjects: false,
      sandbox: {},
    });
    servers.push(server);
    return server;
  }

  beforeAll(() => {
    postgres = sharedPostgres();
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    for (const d of dirs) d.cleanup();
    await postgres?.stop();
  });

  it('a session made on one instance works on the other, and stops on both once its key is revoked on either', async () => {
    const database = await postgres.createDatabase('sessions_across');
    const first = await instance(database);
    const second = await instance(database);
    const initial = first.initialManagementKey!;
    expect(initial).toBeDefined();
    // The second instance found the key the first made, and made none of its own.
    expect(second.initialManagementKey).toBeUndefined();
    const created = await fetch(`${first.url}/api/v1/keys`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${initial}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', kind: 'management' }),
    });
    const ada = (await created.json()) as { data: { id: string }; key: string };
    const signedIn = await fetch(`${first.url}/api/inspector/session`, { method: 'POST', headers: RENDERER, body: JSON.stringify({ key: ada.key }) });
    expect(signedIn.status).toBe(200);
    // The same session under the name each instance reads, as a load balancer's one address would give both.
    const token = cookieOf(signedIn).split('=')[1]!;
    const ask = (server: RunningServer) =>
      fetch(`${server.url}/api/inspector/apiKeys.create`, {
        method: 'POST',
        headers: { ...RENDERER, cookie: `${sessionCookie(server.url)}=${token}` },
        body: JSON.stringify({ name: `via ${server.url}` }),
      });
    expect((await ask(second)).status).toBe(200);

    // Revoked through the first instance's public API: the second refuses the session at its next request.
    expect((await fetch(`${first.url}/api/v1/keys/${ada.data.id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${initial}` } })).status).toBe(200);
    const refused = await ask(second);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/revoked/);

    // Both instances write one log: the initial key's creation (the command line), Ada's key, what Ada did on the second, and the revocation.
    const log = (await second.core.audit.list({ offset: 0, limit: 10 })).entries.map((e) => [
      e.actor.kind === 'management_key' ? e.actor.key_name : e.actor.kind,
      e.action,
    ]);
    expect(log).toEqual([
      ['Initial management key', 'key.revoke'],
      ['Ada', 'key.create'],
      ['Initial management key', 'key.create'],
      ['command_line', 'key.create'],
    ]);
  }, 60_000);
});
