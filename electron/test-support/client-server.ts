import { CatalogFileSchema } from '../../shared/schemas/catalog';
import type { ImageFetchOptions } from '../core';
import { startServer, type RunningServer } from '../server/start-server';
import { HOST_KEYS, startDecisionHosts, type DecisionHosts } from './strict-decision-hosts';
import { tempDir } from './temp-core';

/**
 * A real server on loopback for the Decisions clients from npm: the simulated fleet (a native
 * decision model, `sandbox/decider`, and a chat model, `sandbox/baseline-text`), plus a decision
 * model on a strict OpenAI-shaped loopback host (`acme/luna`) whose replies a test can script (a
 * refusal). Keys: one that works, one with no credit left, one limited to one request a minute.
 */
export interface ClientServer {
  server: RunningServer;
  hosts: DecisionHosts;
  url: string;
  key: string;
  /** Credit below any request's reservation: every Decisions call is a 402. */
  brokeKey: string;
  /** One request a minute. */
  limitedKey: string;
  close(): Promise<void>;
}

export async function startClientServer(options: { imageFetch?: ImageFetchOptions } = {}): Promise<ClientServer> {
  const dirs = [tempDir(), tempDir()];
  const hosts = await startDecisionHosts();
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir: dirs[0]!.path,
    rendererDir: dirs[1]!.path,
    version: 'test',
    overrideGlobalObjects: false,
    sandbox: { seed: 11, failures: false, timeScale: 0.02 },
    timeouts: { deadlineMs: 10_000, attemptMs: 5_000 },
    ...(options.imageFetch ? { imageFetch: options.imageFetch } : {}),
  });
  await server.core.replaceCatalogFile(
    CatalogFileSchema.parse({
      version: 1,
      providers: [{ slug: 'openai', name: 'OpenAI', wire_format: 'openai', base_url: `${hosts.url}/openai/v1` }],
      models: [
        {
          id: 'acme/luna',
          name: 'Luna',
          created: 1,
          architecture: { input_modalities: ['text'], output_modalities: ['decisions'], modality: 'text->decisions', instruct_type: null, tokenizer: null },
        },
      ],
      endpoints: [
        {
          model_id: 'acme/luna',
          provider: 'openai',
          upstream_model: 'gpt-6-luna',
          wire_format: 'openai-decisions',
          pricing: { prompt: '0.0000001', completion: '0' },
        },
      ],
    }),
  );
  // The catalog file alone would turn the simulated fleet off: keep it on beside it.
  await server.core.handlers['settings.update']({ sandbox: 'on' });
  await server.core.providerKeys.set('openai', HOST_KEYS.openai);
  const keys = server.core.apiKeys;
  return {
    server,
    hosts,
    url: server.url,
    key: (await keys.create('client', 'standard')).key,
    brokeKey: (await keys.create('broke', 'standard', { credit_limit: 1e-12, rate_limit_rpm: null })).key,
    limitedKey: (await keys.create('limited', 'standard', { credit_limit: null, rate_limit_rpm: 1 })).key,
    close: async () => {
      await server.close();
      await hosts.close();
      for (const d of dirs) d.cleanup();
    },
  };
}

/** Decisions an OpenAI-shaped host refuses: each question named in `refuse` comes back as a refusal. */
export function scriptRefusal(hosts: DecisionHosts, refuse: string): void {
  hosts.script('openai', (body) => {
    const questions = body['questions'] as { name: string; type: string }[];
    return {
      status: 200,
      body: {
        model: 'gpt-6-luna',
        answers: questions.map((q) => (q.name === refuse ? { type: 'refusal', name: q.name } : { type: 'predicate', name: q.name, probability: 0.5 })),
        usage: {
          input_tokens: 100,
          input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
          output_tokens: 2,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 102,
        },
      },
    };
  });
}
