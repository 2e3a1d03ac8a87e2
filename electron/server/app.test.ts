import { sqliteOf } from '../test-support/sqlite-of';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '../../shared/schemas/error-envelope';
import { tempCore, tempDir } from '../test-support/temp-core';
import { createServerApp } from './app';
import { CLIENT_HEADER, SESSION_COOKIE, sessionCookie } from './inspector-api';

const UI_TOKEN = 'test-ui-token-0123456789';

describe('headless server (in process)', () => {
  let env: Awaited<ReturnType<typeof tempCore>>;
  let ui: ReturnType<typeof tempDir>;
  let app: ReturnType<typeof createServerApp>;
  let management: string;
  let standard: string;

  beforeEach(async () => {
    env = await tempCore({ sandbox: {} });
    await env.core.settings.update({ sandbox: 'off' });
    await env.core.refreshSandbox();
    ui = tempDir();
    app = createServerApp(env.core, { uiToken: UI_TOKEN, rendererDir: ui.path, bodyLimitBytes: 64 * 1024 });
    management = (await env.core.apiKeys.create('m', 'management')).key;
    standard = (await env.core.apiKeys.create('s', 'standard')).key;
  });
  afterEach(async () => {
    await env.cleanup();
    ui.cleanup();
  });

  const auth = (key: string) => ({ Authorization: `Bearer ${key}` });
  async function envelope(response: Response, status: number) {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const body = ErrorEnvelopeSchema.parse(await response.json());
    expect(body.error.code).toBe(status);
    return body.error;
  }
  const decide = (body: string, key = standard) =>
    app.request('/api/alpha/decisions', { method: 'POST', headers: { ...auth(key), 'content-type': 'application/json' }, body });

  it('401 without a key, with a malformed header, and with an unknown or revoked key', async () => {
    expect((await envelope(await app.request('/api/v1/endpoints/zdr'), 401)).message).toMatch(/Missing Authorization header/);
    expect((await envelope(await app.request('/api/v1/endpoints/zdr', { headers: { Authorization: 'Basic abc' } }), 401)).message).toMatch(/Malformed/);
    expect((await envelope(await app.request('/api/v1/endpoints/zdr', { headers: auth('vd-000000000000-' + 'x'.repeat(43)) }), 401)).message).toMatch(
      /Invalid or revoked/,
    );
    const { info, key } = await env.core.apiKeys.create('gone', 'standard');
    await env.core.apiKeys.revoke(info.id);
    await envelope(await app.request('/api/v1/endpoints/zdr', { headers: auth(key) }), 401);
  });

  it('403 for a standard key on a management operation, with the spec message', async () => {
    const error = await envelope(await app.request('/api/v1/keys', { headers: auth(standard) }), 403);
    expect(error.message).toBe('Only management keys can perform this operation');
    const listed = await app.request('/api/v1/keys', { headers: auth(management) });
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { data: unknown[] }).data).toHaveLength(2);
  });

  it('management keys create and revoke keys; the new key works at once', async () => {
    const created = await app.request('/api/v1/keys', { method: 'POST', headers: auth(management), body: JSON.stringify({ name: 'job', kind: 'standard' }) });
    expect(created.status).toBe(201);
    const { data, key } = (await created.json()) as { data: { id: string }; key: string };
    expect((await app.request('/api/v1/endpoints/zdr', { headers: auth(key) })).status).toBe(200);
    expect((await app.request(`/api/v1/keys/${data.id}`, { method: 'DELETE', headers: auth(management) })).status).toBe(200);
    await envelope(await app.request('/api/v1/endpoints/zdr', { headers: auth(key) }), 401);
  });

  it('404 for unknown routes and for a model the catalog does not have', async () => {
    expect((await envelope(await app.request('/api/v1/nothing-here', { headers: auth(standard) }), 404)).message).toMatch(
      /No route for GET \/api\/v1\/nothing-here/,
    );
    expect((await envelope(await app.request('/api/v1/models/acme/none/endpoints', { headers: auth(standard) }), 404)).message).toMatch(
      /Model "acme\/none" was not found/,
    );
  });

  it('405 for a wrong method, with Allow', async () => {
    const response = await app.request('/api/v1/endpoints/zdr', { method: 'POST', headers: auth(standard) });
    const error = await envelope(response, 405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(error.message).toMatch(/POST is not allowed/);
    await envelope(await app.request('/api/alpha/decisions', { method: 'GET', headers: auth(standard) }), 405);
  });

  it('413 for a body over the configured limit', async () => {
    const error = await envelope(await decide(JSON.stringify({ model: 'a/b', state: 'x'.repeat(70 * 1024), questions: {} })), 413);
    expect(error.message).toMatch(/65536 bytes/);
  });

  it('400 for malformed JSON, saying where it broke', async () => {
    const error = await envelope(await decide('{\n  "model": "a/b",\n  "state": "x",,\n}'), 400);
    expect(error.message).toMatch(/^Malformed JSON in the request body at line 3, column 16: Expected double-quoted property name/);
    expect((await envelope(await decide(''), 400)).message).toMatch(/body is empty/);
  });

  it('400 for schema violations, naming the JSON path', async () => {
    const body = { model: 'a/b', state: 'x', questions: { q: { type: 'noul', instructions: 'x' } }, provider: { sortt: 'price' } };
    const error = await envelope(await decide(JSON.stringify(body)), 400);
    expect(error.message).toContain('provider.sortt: unknown property "sortt"');
    expect(error.metadata).toEqual({ problems: [{ path: 'provider.sortt', message: 'unknown property "sortt" is not allowed here' }] });
  });

  it('404 for a valid Decisions request naming a model the catalog does not have', async () => {
    const body = { model: 'acme/none', state: 'x', questions: { q: { type: 'noul', instructions: 'x' } } };
    expect((await envelope(await decide(JSON.stringify(body)), 404)).message).toMatch(/acme\/none/);
  });

  it('500 hides internals and carries a request id that the log has', async () => {
    const logged: unknown[] = [];
    const logger = { ...env.core.logger, error: (obj: unknown) => logged.push(obj) };
    const broken = createServerApp({ ...env.core, logger } as typeof env.core, { uiToken: UI_TOKEN, rendererDir: ui.path });
    sqliteOf(env.core).close();
    const error = await envelope(await broken.request('/api/v1/endpoints/zdr', { headers: auth(standard) }), 500);
    expect(error.message).toMatch(/^Internal server error \(request [0-9a-f-]{36}\)$/);
    expect(error.metadata?.['request_id']).toBeTypeOf('string');
    expect(JSON.stringify(error)).not.toMatch(/sqlite|database|stack/i);
    expect(JSON.stringify(logged)).toContain(String(error.metadata?.['request_id']));
  });

  it('refuses requests that name a foreign Host (DNS rebinding)', async () => {
    const response = await app.request('http://evil.example/api/v1/endpoints/zdr', { headers: auth(standard) });
    await envelope(response, 403);
  });

  describe('inspector operations', () => {
    const op = (name: string, body: unknown, headers: Record<string, string>) =>
      app.request(`/api/inspector/${name}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const session = { cookie: `${SESSION_COOKIE}=${UI_TOKEN}`, [CLIENT_HEADER]: 'renderer' };

    it('need the session cookie and the client header', async () => {
      await envelope(await op('app.info', {}, { [CLIENT_HEADER]: 'renderer' }), 401);
      await envelope(await op('app.info', {}, { cookie: `${SESSION_COOKIE}=wrong`, [CLIENT_HEADER]: 'renderer' }), 401);
      await envelope(await op('app.info', {}, { cookie: session.cookie }), 403);
      const ok = await op('app.info', {}, session);
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({ ok: true, data: { name: 'Verdict', host: 'browser', version: '9.9.9-test' } });
    });

    it('the printed token sets an HttpOnly, SameSite=Strict cookie and leaves the URL', async () => {
      const response = await app.request(`/?token=${UI_TOKEN}`);
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/');
      expect(response.headers.get('set-cookie')).toMatch(new RegExp(`${SESSION_COOKIE}=${UI_TOKEN}; Path=/; HttpOnly; SameSite=Strict`));
      expect((await app.request('/?token=stale')).status).toBe(401);
    });

    it('name the cookie with the port the browser asked, so two servers on one host keep their own sessions', async () => {
      // Cookies ignore ports: one name for both would let the second server's sign-in replace the first's.
      const signedIn = await app.request(`http://127.0.0.1:4100/?token=${UI_TOKEN}`);
      expect(signedIn.headers.get('set-cookie')).toMatch(new RegExp(`^verdict_session_4100=${UI_TOKEN}; Path=/; HttpOnly; SameSite=Strict`));
      expect(sessionCookie('http://127.0.0.1:4200/')).toBe('verdict_session_4200');
      // The browser sends both servers' cookies to each: this server reads the one named for its port.
      const both = `verdict_session_4200=another-servers-token; verdict_session_4100=${UI_TOKEN}`;
      const asked = (port: number, cookie: string) =>
        app.request(`http://127.0.0.1:${port}/api/inspector/app.info`, { method: 'POST', headers: { cookie, [CLIENT_HEADER]: 'renderer' }, body: '{}' });
      expect((await asked(4100, both)).status).toBe(200);
      await envelope(await asked(4100, `verdict_session_4200=${UI_TOKEN}`), 401);
      await envelope(await asked(4200, both), 401);
    });

    it('validate input and answer errors as data', async () => {
      const response = await op('providerKeys.set', { provider: 'openai', key: 'short' }, session);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { ok: boolean; error: { message: string } };
      expect(body.ok).toBe(false);
      expect(body.error.message).toMatch(/key: a provider key is at least 8 characters/);
      const unknown = await op('providerKeys.set', { provider: 'nobody', key: 'sk-12345678' }, session);
      expect(unknown.status).toBe(404);
    });

    it('a stored provider key is never part of any answer', async () => {
      const secret = 'sk-never-leaves-core-0001';
      const stored = await op('providerKeys.set', { provider: 'openai', key: secret }, session);
      expect(await stored.json()).toMatchObject({ ok: true, data: { provider: 'openai', key_set: true } });
      const answers = await Promise.all(
        ['app.info', 'settings.get', 'providers.list', 'apiKeys.list', 'models.list', 'endpoints.zdr'].map((name) =>
          Promise.resolve(op(name, {}, session)).then((r) => r.text()),
        ),
      );
      for (const text of answers) expect(text).not.toContain(secret);
      expect(answers[2]).toContain('"slug":"openai","name":"OpenAI"');
      expect(await env.core.providerKeys.keyFor('openai', 'https://api.openai.com/v1', 'OpenAI')).toEqual({ key: secret });
    });
  });
});
