import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-core';
import { startServer, type RunningServer } from './start-server';

/** Remote mode, tested against a second instance of our own server on loopback. */
describe('remote gateway mode', () => {
  let upstream: RunningServer;
  let local: RunningServer;
  const dirs = [tempDir(), tempDir(), tempDir()];
  let upstreamKey: string;
  let localKey: string;

  beforeAll(async () => {
    const common = { port: 0, host: '127.0.0.1', rendererDir: dirs[2]!.path, version: 'test', overrideGlobalObjects: false };
    upstream = await startServer({ ...common, dataDir: dirs[0]!.path, sandbox: { seed: 3, failures: false, timeScale: 0.05 } });
    local = await startServer({ ...common, dataDir: dirs[1]!.path, sandbox: { seed: 4, failures: false, timeScale: 0.05 } });
    upstreamKey = (await upstream.core.apiKeys.create('for the local app', 'standard')).key;
    localKey = (await local.core.apiKeys.create('caller', 'standard')).key;
    await local.core.handlers['settings.update']({ gateway: { mode: 'remote', base_url: `${upstream.url}/api/v1` } });
    await local.core.handlers['settings.update']({ sandbox: 'off' });
  });
  afterAll(async () => {
    await local.close();
    await upstream.close();
    for (const d of dirs) d.cleanup();
  });

  const get = (server: RunningServer, path: string, key: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } });

  it('without the remote key set, says so', async () => {
    const response = await get(local, '/api/v1/endpoints/zdr', localKey);
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/No key is set for the remote gateway/);
  });

  it('listings and ZDR come from the remote gateway, measured figures and all', async () => {
    await local.core.handlers['remoteKey.set']({ key: upstreamKey });
    const remoteListing = await (await get(upstream, '/api/v1/models/sandbox/baseline-text/endpoints', upstreamKey)).json();
    const viaLocal = await (await get(local, '/api/v1/models/sandbox/baseline-text/endpoints', localKey)).json();
    expect(viaLocal).toEqual(remoteListing);
    // The local app's own catalog has no such model: the answer really came from the remote.
    expect(local.core.catalog.hasModel('sandbox/baseline-text')).toBe(false);
    const zdr = (await (await get(local, '/api/v1/endpoints/zdr', localKey)).json()) as { data: { tag: string }[] };
    expect(zdr.data.map((e) => e.tag)).toContain('sandbox-swift');
    const info = await local.core.handlers['app.info']({});
    expect(info.gateway).toEqual({ mode: 'remote', base_url: `${upstream.url}/api/v1`, key_set: true, key_origin: upstream.url });
  });

  it('decisions are answered by the remote gateway; its errors come back with their status', async () => {
    const ask = (body: unknown) =>
      fetch(`${local.url}/api/alpha/decisions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${localKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const ok = await ask({
      model: 'sandbox/baseline-text',
      state: 'The parcel came two days late.',
      questions: { late: { type: 'noul', instructions: 'Did the parcel come late?' } },
    });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { provider: string; answers: { late: { noul: number } } };
    expect(body.provider).toMatch(/\(simulated\)$/);
    expect(body.answers.late.noul).toBeGreaterThan(0.5);
    const missing = await ask({ model: 'acme/none', state: 'x', questions: { q: { type: 'noul', instructions: 'x' } } });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toMatch(/^Remote gateway: Model "acme\/none" was not found/);
  });

  it("a wrong remote key is this app's fault (502), not the caller's (401)", async () => {
    await local.core.handlers['remoteKey.set']({ key: 'vd-000000000000-' + 'x'.repeat(43) });
    const response = await get(local, '/api/v1/endpoints/zdr', localKey);
    expect(response.status).toBe(502);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      "The remote gateway refused this app's key (401: Invalid or revoked API key); update it in Settings",
    );
    await local.core.handlers['remoteKey.set']({ key: upstreamKey });
  });
});
