import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedUpstream } from '../test-support/scripted-upstream';
import { answer, catalogFile, JUDGE } from '../test-support/team';
import { tempDir } from '../test-support/temp-core';
import { startServer, type RunningServer } from './start-server';

/** SIGTERM during a deploy: the instance leaves the load balancer, finishes what it started, then stops. */
describe('draining a server', () => {
  let upstream: ScriptedUpstream;
  let server: RunningServer;
  const dirs = [tempDir(), tempDir()];
  beforeAll(async () => {
    upstream = await new ScriptedUpstream().start();
    upstream.always(answer(800));
    server = await startServer({ port: 0, host: '127.0.0.1', dataDir: dirs[0]!.path, rendererDir: dirs[1]!.path, version: 'test', sandbox: {} });
    await server.core.replaceCatalogFile(catalogFile(upstream.url, upstream.url));
  });
  afterAll(async () => {
    await upstream.close();
    for (const d of dirs) d.cleanup();
  });

  it('/readyz turns 503 at once, a request in flight is answered, and new connections are refused once it has stopped', async () => {
    const { key } = await server.core.apiKeys.create('deploy', 'standard');
    const ask = () =>
      fetch(`${server.url}/api/alpha/decisions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(JUDGE),
      });
    const inFlight = ask();
    // The upstream has the request: it is in flight when the drain begins.
    while (upstream.received.length === 0) await new Promise((r) => setTimeout(r, 10));
    const drained = server.drain({ noticeMs: 300, drainMs: 10_000 });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'draining' });
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as { answers: unknown }).answers).toBeDefined();
    await drained;
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });
});
