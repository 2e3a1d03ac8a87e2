import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-core';
import { startServer, type RunningServer } from './start-server';

/** The default install's simulated chat models behave as providers do past their limits: a 400 naming the limit, never a 5xx. */
describe('the simulated fleet past its limits', () => {
  let server: RunningServer;
  let key: string;
  const dirs = [tempDir(), tempDir()];
  beforeAll(async () => {
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      dataDir: dirs[0]!.path,
      rendererDir: dirs[1]!.path,
      version: 'test',
      overrideGlobalObjects: false,
      sandbox: { seed: 4, failures: false, timeScale: 0 },
      timeouts: { deadlineMs: 20_000, attemptMs: 10_000 },
    });
    await server.core.handlers['settings.update']({ sandbox: 'on' });
    key = (await server.core.apiKeys.create('limits', 'standard')).key;
  });
  afterAll(async () => {
    await server.close();
    for (const d of dirs) d.cleanup();
  });

  const ask = async (body: unknown) => {
    const response = await fetch(`${server.url}/api/alpha/decisions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      body: (await response.json()) as {
        error?: { message: string };
        answers?: Record<string, { type: string; choice?: string; probabilities?: Record<string, number> }>;
      },
    };
  };
  const spent = async () => (await server.core.apiKeys.list()).find((k) => k.name === 'limits')!.spent;
  const choices = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`option ${i}`, null]));

  it('a choice of 255 options and a score of 40 levels are answered, each option with its probability', async () => {
    const wide = await ask({
      model: 'sandbox/baseline-text',
      state: 'option 7 it is',
      questions: { c: { type: 'choice', instructions: 'Which option?', criteria: choices(255) } },
    });
    expect(wide.status, JSON.stringify(wide.body).slice(0, 300)).toBe(200);
    const answer = wide.body.answers!['c']!;
    expect(Object.keys(answer.probabilities!)).toHaveLength(255);
    expect(Object.keys(choices(255))).toContain(answer.choice);
    const levels = await ask({
      model: 'sandbox/baseline-text',
      state: 'level 12',
      questions: { s: { type: 'score', instructions: 'Which level?', criteria: Array.from({ length: 40 }, (_, i) => `level ${i}`) } },
    });
    expect(levels.status, JSON.stringify(levels.body).slice(0, 300)).toBe(200);
  });

  it('a prompt past the model context is a 400 naming the context, and costs nothing', async () => {
    const before = await spent();
    const long = await ask({ model: 'sandbox/baseline-text', state: 'word '.repeat(200_000), questions: { q: { type: 'noul', instructions: 'Is it long?' } } });
    expect(long.status).toBe(400);
    expect(long.body.error!.message).toMatch(/maximum context length is 32768 tokens/);
    const many = await ask({
      model: 'sandbox/baseline-text',
      state: 'x',
      questions: { c: { type: 'choice', instructions: 'Which?', criteria: choices(10_000) } },
    });
    expect(many.status).toBe(400);
    expect(many.body.error!.message).toMatch(/maximum context length is 32768 tokens/);
    expect(await spent()).toBe(before);
  });
});
