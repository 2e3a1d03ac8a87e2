import { CatalogFileSchema } from '../../shared/schemas/catalog';
import { startServer, type RunningServer } from '../server/start-server';
import type { ScriptedUpstream } from './scripted-upstream';
import { tempDir } from './temp-core';
import { WIRE } from './wire-fixtures';

/** What a team's instances are given in the tests: the loopback providers, their catalog and one request. */
const PRICE = 0.000001;
const MODEL = {
  id: 'acme/judge',
  name: 'Judge',
  created: 1,
  architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: 'text->text', instruct_type: null, tokenizer: null },
};
export const answer = (headerDelayMs: number) => ({
  ...WIRE.openai('Yes', {
    top: [
      { token: 'Yes', logprob: -0.1 },
      { token: 'No', logprob: -2.4 },
    ],
    usage: { prompt: 1000, completion: 1 },
  }),
  headerDelayMs,
});
const SUPPORTED = ['logprobs', 'top_logprobs', 'max_tokens'];
/**
 * The loopback providers and their priced models, as each instance's catalog file has them: the
 * judge at Acme; a second model at Acme and, dearer, at Backup (where a cooled Acme sends it).
 */
export const catalogFile = (url: string, backupUrl: string) =>
  CatalogFileSchema.parse({
    version: 1,
    providers: [
      { slug: 'acme', name: 'Acme', wire_format: 'openai', base_url: `${url}/v1`, local: true },
      { slug: 'backup', name: 'Backup', wire_format: 'openai', base_url: `${backupUrl}/v1`, local: true },
    ],
    models: [MODEL, { ...MODEL, id: 'acme/split', name: 'Split' }],
    endpoints: [
      {
        model_id: 'acme/judge',
        provider: 'acme',
        upstream_model: 'judge-1',
        pricing: { prompt: String(PRICE), completion: String(PRICE) },
        supported_parameters: SUPPORTED,
      },
      {
        model_id: 'acme/split',
        provider: 'acme',
        upstream_model: 'split-1',
        pricing: { prompt: String(PRICE), completion: String(PRICE) },
        supported_parameters: SUPPORTED,
      },
      {
        model_id: 'acme/split',
        provider: 'backup',
        upstream_model: 'split-1',
        pricing: { prompt: String(10 * PRICE), completion: String(10 * PRICE) },
        supported_parameters: SUPPORTED,
      },
    ],
  });
export const JUDGE = { model: 'acme/judge', state: 'The parcel came two days late.', questions: { late: { type: 'noul', instructions: 'Was it late?' } } };

/**
 * One instance of the server on a team's Postgres and Redis, with the loopback providers in its
 * catalog; its data and renderer folders are the caller's to clean up.
 */
export async function teamInstance(options: {
  database: string;
  redis: string;
  upstream: ScriptedUpstream;
  backup: ScriptedUpstream;
  redisTimeoutMs?: number | undefined;
  redisFallback?: 'refuse' | 'local';
  claimLeaseMs?: number | undefined;
}): Promise<{ server: RunningServer; dirs: { cleanup(): void; path: string }[] }> {
  const [data, renderer] = [tempDir(), tempDir()];
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir: data.path,
    rendererDir: renderer.path,
    database: options.database,
    redis: options.redis,
    // Several servers, Postgres, Redis and the tests share two cores here: a generous command timeout unless a test sets its own.
    redisTimeoutMs: options.redisTimeoutMs ?? 3_000,
    ...(options.redisFallback ? { redisFallback: options.redisFallback } : {}),
    ...(options.claimLeaseMs ? { claimLeaseMs: options.claimLeaseMs } : {}),
    version: 'test',
    overrideGlobalObjects: false,
    sandbox: { seed: 1, failures: false, timeScale: 0 },
    timeouts: { deadlineMs: 10_000, attemptMs: 5_000 },
  });
  await server.core.replaceCatalogFile(catalogFile(options.upstream.url, options.backup.url));
  return { server, dirs: [data, renderer] };
}
