import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedUpstream, sse } from '../../test-support/scripted-upstream';
import { tempCore, type TempCore } from '../../test-support/temp-core';
import { decodeBoundKey } from './bound-key';

const SECRET = 'sk-stays-with-its-own-origin-0001';
const MODEL = {
  id: 'acme/one',
  name: 'One',
  created: 1,
  architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: 'text->text', instruct_type: null, tokenizer: null },
};
const ENDPOINT = {
  model_id: 'acme/one',
  provider: 'openai',
  upstream_model: 'one-2026',
  pricing: { prompt: '0.000001', completion: '0.000002' },
  supported_parameters: ['max_tokens', 'logprobs', 'top_logprobs'],
};
const catalogAt = (baseUrl: string) => ({
  version: 1 as const,
  providers: [{ slug: 'openai', name: 'OpenAI', wire_format: 'openai' as const, base_url: baseUrl }],
  models: [MODEL],
  endpoints: [ENDPOINT],
});
const yes = sse([
  {
    id: 'c1',
    choices: [
      {
        delta: { content: 'Yes' },
        logprobs: {
          content: [
            {
              token: 'Yes',
              logprob: -0.1,
              top_logprobs: [
                { token: 'Yes', logprob: -0.1 },
                { token: 'No', logprob: -2.4 },
              ],
            },
          ],
        },
      },
    ],
  },
  { id: 'c1', choices: [], usage: { prompt_tokens: 20, completion_tokens: 1 } },
]);
const carriesKey = (u: ScriptedUpstream) => u.received.filter((r) => JSON.stringify(r.headers).includes(SECRET)).length;

describe('a provider key stays with the origin it was entered for', () => {
  let home: ScriptedUpstream;
  let thief: ScriptedUpstream;
  let env: TempCore;
  beforeAll(async () => {
    [home, thief] = await Promise.all([new ScriptedUpstream().start(), new ScriptedUpstream().start()]);
    for (const u of [home, thief]) u.always({ kind: 'respond', status: 200, chunks: yes });
  });
  afterAll(async () => {
    await Promise.all([home.close(), thief.close()]);
  });
  afterEach(async () => {
    await env.cleanup();
    home.received.length = 0;
    thief.received.length = 0;
  });

  const decide = () =>
    env.core
      .service()
      .decide({ model: 'acme/one', state: 'The parcel came late.', questions: { late: { type: 'noul', instructions: 'Was it late?' } } }, { requestId: 'r1' });

  async function keyedAtHome(): Promise<void> {
    env = await tempCore();
    await env.core.settings.update({ sandbox: 'off' });
    await env.core.handlers['catalog.import']({ catalog: catalogAt(`${home.url}/v1`) });
    const state = await env.core.handlers['providerKeys.set']({ provider: 'openai', key: SECRET });
    expect(state.key_origin).toBe(home.url);
    await decide();
    expect(carriesKey(home)).toBeGreaterThan(0);
  }

  async function expectKeptHome(): Promise<void> {
    const before = home.received.length;
    const refused = await decide().catch((e: Error) => e);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toContain(`entered for ${home.url}`);
    await env.core.refreshDiscovery();
    expect(carriesKey(thief)).toBe(0);
    expect(thief.received.filter((r) => r.headers.authorization !== undefined)).toHaveLength(0);
    expect(home.received.length).toBe(before);
    const listed = (await env.core.handlers['providers.list']({})).find((p) => p.slug === 'openai')!;
    expect(listed).toMatchObject({ base_url: `${thief.url}/v1`, key_set: true, key_origin: home.url });
    expect(env.core.discoveryResults().get('openai')?.error).toContain('is not sent there');
  }

  it('through a catalog import that points the provider elsewhere', async () => {
    await keyedAtHome();
    await env.core.handlers['catalog.import']({ catalog: catalogAt(`${thief.url}/v1`) });
    await expectKeptHome();
  });

  it('through a backup import that carries such a catalog', async () => {
    await keyedAtHome();
    const backup = await env.core.handlers['backup.export']({});
    await env.core.handlers['backup.import']({ backup: { ...backup, catalog: catalogAt(`${thief.url}/v1`) } });
    await expectKeptHome();
  });

  it('goes to a new address only once the user enters a key for it', async () => {
    await keyedAtHome();
    await env.core.handlers['catalog.import']({ catalog: catalogAt(`${thief.url}/v1`) });
    await env.core.handlers['providerKeys.set']({ provider: 'openai', key: 'sk-entered-for-the-new-address' });
    await decide();
    expect(thief.received.some((r) => r.headers.authorization === 'Bearer sk-entered-for-the-new-address')).toBe(true);
    expect(carriesKey(thief)).toBe(0);
  });

  it('a key stored before binding is bound to the bundled provider’s own address, not where a file points it', async () => {
    env = await tempCore();
    await env.core.settings.update({ sandbox: 'off' });
    await env.core.options.secrets.set('provider:openai', SECRET);
    await env.core.handlers['catalog.import']({ catalog: catalogAt(`${thief.url}/v1`) });
    await expect(decide()).rejects.toThrow(/entered for https:\/\/api\.openai\.com/);
    expect(carriesKey(thief)).toBe(0);
    expect(decodeBoundKey((await env.core.options.secrets.get('provider:openai'))!)).toEqual({ key: SECRET, origin: 'https://api.openai.com' });
  });
});

describe('the remote gateway key', () => {
  it('is bound to the gateway it was entered for and is not sent to another', async () => {
    const first = await new ScriptedUpstream().start();
    const second = await new ScriptedUpstream().start();
    const env = await tempCore();
    try {
      await expect(env.core.handlers['remoteKey.set']({ key: SECRET })).rejects.toThrow(/Connect to a remote gateway first/);
      first.always({ kind: 'respond', status: 200, chunks: [JSON.stringify({ data: [] })] });
      second.always({ kind: 'respond', status: 200, chunks: [JSON.stringify({ data: [] })] });
      await env.core.handlers['settings.update']({ gateway: { mode: 'remote', base_url: `${first.url}/api/v1` } });
      await env.core.handlers['remoteKey.set']({ key: SECRET });
      await env.core.service().zdr();
      expect(first.received[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
      await env.core.handlers['settings.update']({ gateway: { mode: 'remote', base_url: `${second.url}/api/v1` } });
      await expect(env.core.service().zdr()).rejects.toThrow(/entered for/);
      expect(second.received).toHaveLength(0);
      expect((await env.core.handlers['app.info']({})).gateway).toMatchObject({ key_set: true, key_origin: first.url });
    } finally {
      await env.cleanup();
      await first.close();
      await second.close();
    }
  });
});
