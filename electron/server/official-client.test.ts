import { OpenRouter } from '@openrouter/sdk';
import * as sdkErrors from '@openrouter/sdk/models/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-core';
import { startServer, type RunningServer } from './start-server';
import { SANDBOX_PROFILES } from '../core/sandbox/profiles';
import { singleEndpointPlan } from '../core/routing/plan';

/**
 * The official client, pointed at our real server over a loopback socket, must accept every
 * response we send: successes parse, and every error arrives as the SDK's typed error class.
 */
describe('official client @openrouter/sdk against the headless server', () => {
  let server: RunningServer;
  let data: ReturnType<typeof tempDir>;
  let ui: ReturnType<typeof tempDir>;
  let standardKey: string;

  beforeAll(async () => {
    data = tempDir();
    ui = tempDir();
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      dataDir: data.path,
      rendererDir: ui.path,
      version: 'test',
      bodyLimitBytes: 32 * 1024,
      sandbox: { seed: 7, failures: false, timeScale: 0.05 },
      // The client under test runs in this process and checks `instanceof Request`.
      overrideGlobalObjects: false,
    });
    standardKey = (await server.core.apiKeys.create('sdk', 'standard')).key;
  });
  afterAll(async () => {
    await server.close();
    data.cleanup();
    ui.cleanup();
  });

  const client = (apiKey: string) => new OpenRouter({ apiKey, serverURL: `${server.url}/api/v1`, retryConfig: { strategy: 'none' } });
  const decisions = (apiKey: string, decisionsRequest: Parameters<OpenRouter['alpha']['decisions']['create']>[0]['decisionsRequest']) =>
    client(apiKey).alpha.decisions.create({ decisionsRequest }, { serverURL: server.url });

  it('endpoints.listZdrEndpoints parses our ZDR listing', async () => {
    const result = await client(standardKey).endpoints.listZdrEndpoints();
    const expected = SANDBOX_PROFILES.filter((p) => p.zdr === true).flatMap((p) => p.models.map((m) => `${p.name} | ${m}`));
    expect(result.data.map((e) => e.name).sort()).toEqual(expected.sort());
  });

  it('endpoints.list parses a model with endpoints, unmeasured and then measured', async () => {
    const before = await client(standardKey).endpoints.list({ author: 'sandbox', slug: 'baseline-text' });
    const swift = before.data.endpoints.find((e) => e.tag === 'sandbox-swift')!;
    expect(swift.latencyLast30m).toBeNull();
    expect(swift.uptimeLast1d).toBeNull();
    expect(swift.pricing.prompt).toBe('0.0000012');

    const core = server.core;
    const endpoint = core.catalog.endpointsOf('sandbox/baseline-text').find((e) => e.provider.slug === 'sandbox-swift')!;
    for (let i = 0; i < 3; i += 1) {
      await core.router.run(
        singleEndpointPlan(endpoint, 'test'),
        async (_a, signal) => {
          const result = (await core.upstreams.call(
            endpoint,
            { messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }], maxTokens: 8 },
            signal,
          ))!;
          return { value: result.text, usage: result.usage, timings: result.timings };
        },
        { requestId: `t${i}` },
      );
    }
    const after = await client(standardKey).endpoints.list({ author: 'sandbox', slug: 'baseline-text' });
    const measured = after.data.endpoints.find((e) => e.tag === 'sandbox-swift')!;
    expect(measured.latencyLast30m?.p50).toBeGreaterThan(0);
    expect(measured.throughputLast30m?.p50).toBeGreaterThan(0);
    expect(measured.uptimeLast1d).toBe(100);
    expect(after.data.endpoints.find((e) => e.tag === 'sandbox-bargain')!.latencyLast30m).toBeNull();
  });

  it('endpoints.list: an unknown model is a NotFoundResponseError carrying our message', async () => {
    const error = await client(standardKey)
      .endpoints.list({ author: 'acme', slug: 'none' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(sdkErrors.NotFoundResponseError);
    expect((error as sdkErrors.NotFoundResponseError).error.code).toBe(404);
    expect((error as Error).message).toMatch(/Model "acme\/none" was not found/);
  });

  it('alpha.decisions.create: 401 for a bad key', async () => {
    const error = await decisions('vd-000000000000-' + 'x'.repeat(43), {
      model: 'acme/none',
      state: 'x',
      questions: { q: { type: 'noul', instructions: 'x' } },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(sdkErrors.UnauthorizedResponseError);
    expect((error as sdkErrors.UnauthorizedResponseError).error.message).toMatch(/Invalid or revoked API key/);
  });

  it('alpha.decisions.create: 400 names the path of a rule the SDK does not check itself', async () => {
    const error = await decisions(standardKey, {
      model: 'acme/none',
      state: 'x',
      questions: { q: { type: 'score', instructions: 'x', criteria: [] } },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(sdkErrors.BadRequestResponseError);
    expect((error as Error).message).toMatch(/questions\.q\.criteria/);
  });

  it('alpha.decisions.create: 404 for a model the catalog does not have', async () => {
    const error = await decisions(standardKey, { model: 'acme/none', state: 'x', questions: { q: { type: 'noul', instructions: 'x' } } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(sdkErrors.NotFoundResponseError);
  });

  it('alpha.decisions.create: 413 for a body over the limit', async () => {
    const error = await decisions(standardKey, {
      model: 'acme/none',
      state: 'x'.repeat(40 * 1024),
      questions: { q: { type: 'noul', instructions: 'x' } },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(sdkErrors.PayloadTooLargeResponseError);
  });

  it('a standard key on key management is refused with 403 and the spec message', async () => {
    const response = await fetch(`${server.url}/api/v1/keys`, { headers: { Authorization: `Bearer ${standardKey}` } });
    expect(response.status).toBe(403);
    const parsed = sdkErrors.ForbiddenResponseError$inboundSchema.parse({
      ...((await response.json()) as object),
      request$: new Request(`${server.url}/api/v1/keys`),
      response$: response,
      body$: '',
    });
    expect(parsed).toBeInstanceOf(sdkErrors.ForbiddenResponseError);
    expect(parsed.error.message).toBe('Only management keys can perform this operation');
  });
});
