import { OpenRouter } from '@openrouter/sdk';
import * as sdkErrors from '@openrouter/sdk/models/errors';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-core';
import { startServer, type RunningServer } from './start-server';

const CLI = join(process.cwd(), 'node_modules', '.cache', 'verdict-test', 'models-cli.mjs');

/** The shell block of the README's "Public API" section, exactly as written. */
function readmeExamples(): string {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('### Public API'));
  return /```sh\n([\s\S]*?)```/.exec(section)![1]!;
}

describe('GET /api/v1/models and the README examples on a fresh machine', () => {
  let server: RunningServer;
  let data: ReturnType<typeof tempDir>;
  let ui: ReturnType<typeof tempDir>;
  let key: string;

  beforeAll(async () => {
    await build({
      entryPoints: ['electron/server/cli.ts'],
      outfile: CLI,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      packages: 'external',
      logLevel: 'warning',
    });
    data = tempDir();
    ui = tempDir();
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      dataDir: data.path,
      rendererDir: ui.path,
      version: 'test',
      sandbox: { seed: 3, failures: false, timeScale: 0.05 },
      overrideGlobalObjects: false,
    });
    key = (await server.core.apiKeys.create('sdk', 'standard')).key;
  }, 60_000);
  afterAll(async () => {
    await server.close();
    data.cleanup();
    ui.cleanup();
  });

  it('the official client parses the models list, and it names the models a fresh start serves', async () => {
    const client = new OpenRouter({ apiKey: key, serverURL: `${server.url}/api/v1`, retryConfig: { strategy: 'none' } });
    const list = (await client.models.list()).result;
    const ids = list.data.map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['sandbox/baseline-text', 'sandbox/baseline-vision']));
    const text = list.data.find((m) => m.id === 'sandbox/baseline-text')!;
    expect(Number(text.pricing.prompt)).toBeGreaterThan(0);
    expect(text.contextLength).toBeGreaterThan(0);
    expect(text.architecture.inputModalities).toContain('text');
    expect(list.totalCount).toBe(list.data.length);
  });

  it('output_modalities filters as OpenRouter documents: text by default, decisions when asked, all for both', async () => {
    const client = new OpenRouter({ apiKey: key, serverURL: `${server.url}/api/v1`, retryConfig: { strategy: 'none' } });
    const ids = async (outputModalities?: string) =>
      (await client.models.list(outputModalities === undefined ? {} : { outputModalities })).result.data.map((m) => m.id);
    const text = await ids();
    const decisions = await ids('decisions');
    expect(text).toContain('sandbox/baseline-text');
    expect(text).not.toContain('sandbox/decider');
    // On a fresh machine: the simulated decision model, and the bundled ones listed with no key.
    expect(decisions).toEqual(expect.arrayContaining(['sandbox/decider', 'typesafe/jev-1.13', 'openai/gpt-6-luna-decisions', 'perplexity/pplx-decider-v1.2']));
    expect(decisions).not.toContain('sandbox/baseline-text');
    expect(new Set(await ids('all'))).toEqual(new Set([...text, ...decisions]));
    expect(new Set(await ids('text,decisions'))).toEqual(new Set([...text, ...decisions]));
    const decider = (await client.models.list({ outputModalities: 'decisions' })).result.data.find((m) => m.id === 'sandbox/decider')!;
    expect(decider.architecture.outputModalities).toEqual(['decisions']);
  });

  it('a 404 for an unknown model names a few known ones', async () => {
    const client = new OpenRouter({ apiKey: key, serverURL: `${server.url}/api/v1`, retryConfig: { strategy: 'none' } });
    const error = await client.endpoints.list({ author: 'acme', slug: 'small' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(sdkErrors.NotFoundResponseError);
    expect((error as Error).message).toContain('sandbox/baseline-text');
    expect((error as Error).message).toContain('GET /api/v1/models');
  });

  it('every curl example in the README answers 200 as written, with KEY set the way it says', async () => {
    const script = readmeExamples()
      // Only the address and the way the CLI is started differ here: a free port, a temporary data directory.
      .replaceAll('http://127.0.0.1:8787', server.url)
      .replaceAll('npm run -s serve --', `${process.execPath} ${CLI}`)
      .replace(/keys create/, `keys create --data-dir ${data.path}`)
      // One status line after each response, to check them.
      .replace(/^curl (.*?)(\\\n.*)?$/gm, (line) => `${line} -w '\\n%{http_code}\\n'`);
    // Asynchronously: the server answering the examples runs in this process.
    const { stdout: out } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], {
      encoding: 'utf8',
      env: { ...process.env, VERDICT_LOG_LEVEL: 'error' },
    });
    const lines = out.trim().split('\n');
    const statuses = lines.filter((_, i) => i % 2 === 1);
    expect(statuses).toEqual(['200', '200', '200', '200', '200', '200']);
    expect(JSON.parse(lines[6]!)).toHaveProperty('answers.late');
    expect(JSON.parse(lines[8]!).data.map((m: { id: string }) => m.id)).toContain('sandbox/decider');
    expect(JSON.parse(lines[10]!)).toMatchObject({ model: 'sandbox/decider', answers: { late: { type: 'noul' } } });
  }, 30_000);
});
