import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import { tempCore, type TempCore } from '../../test-support/temp-core';
import { pngWithRect } from '../../test-support/images';
import { openAiRequestCheck } from '../../test-support/openai-decisions-schema';

/**
 * The simulated decision model on a fresh machine: each of its three hosts (one per wire family)
 * answers natively, its answers pass the checks a real host's must, and each host is as strict as
 * its family (what it refuses, it refuses with its family's error body).
 */
describe('the simulated decision hosts', () => {
  let env: TempCore;
  beforeAll(async () => {
    env = await tempCore({ sandbox: { seed: 5, failures: false, timeScale: 0 } });
  });
  afterAll(() => env.cleanup());

  const questions = {
    late: { type: 'noul', instructions: 'Was the parcel late?' },
    topic: { type: 'choice', instructions: 'What is it about?', criteria: { delivery: 'parcel shipping late', billing: 'charge refund', other: null } },
    mood: { type: 'score', instructions: 'How upset?', criteria: ['calm', 'annoyed', 'angry crushed'] },
  } as const;

  for (const host of ['sandbox-oracle', 'sandbox-verity', 'sandbox-arbiter']) {
    it(`${host} answers sandbox/decider natively`, async () => {
      const outcome = await env.core.decisions.decide(
        {
          model: 'sandbox/decider',
          state: 'The parcel came late and the box was crushed.',
          questions,
          provider: { only: [host], allow_fallbacks: false },
        } as unknown as DecisionsRequest,
        { requestId: host },
      );
      expect(outcome.endpoint.provider.slug).toBe(host);
      expect(Object.values(outcome.methods)).toEqual(['native', 'native', 'native']);
      expect(Object.keys(outcome.response.answers)).toEqual(['late', 'topic', 'mood']);
      expect(outcome.response.answers['topic']).toMatchObject({ type: 'choice', choice: 'delivery' });
      // Two decimals, as decision hosts answer.
      expect(String((outcome.response.answers['late'] as { noul: number }).noul)).toMatch(/^\d(\.\d{1,2})?$/);
    });
  }

  it('boxes go to the simulated gateway (the only one of the three that answers them), over the image in the state', async () => {
    const image = pngWithRect(64, 48, { x: 16, y: 12, w: 32, h: 24 });
    const outcome = await env.core.decisions.decide(
      {
        model: 'sandbox/decider',
        state: [{ type: 'image_url', image_url: { url: image } }],
        questions: { thing: { type: 'box', instructions: 'the rectangle' } },
      } as DecisionsRequest,
      { requestId: 'box' },
    );
    expect(outcome.endpoint.provider.slug).toBe('sandbox-oracle');
    expect(outcome.response.answers['thing']).toEqual({ type: 'box', box: { top: 0.25, bottom: 0.75, left: 0.25, right: 0.75 } });
    expect(outcome.plan.excluded.map((e) => e.endpoint.provider.slug).sort()).toEqual(['sandbox-arbiter', 'sandbox-verity']);
  });

  it('each simulated host refuses as its family does', async () => {
    const url = (slug: string, path: string) => `${env.core.sandbox()!.url}/${slug}${path}`;
    const post = async (target: string, body: unknown) => {
      const response = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const systemOne = await post(url('sandbox-verity', '/v1/systemone'), { model: 'sandbox/decider', questions: {} });
    expect(systemOne).toEqual({ status: 422, body: { detail: [{ loc: ['body', 'state'], msg: 'Field required', type: 'missing' }] } });
    const unknownKey = { model: 'sandbox/decider', input: 'x', questions: [{ type: 'predicate', name: 'a', instructions: 'y', criteria: { true: 'z' } }] };
    const openAi = await post(url('sandbox-arbiter', '/v1/decisions'), unknownKey);
    expect(openAi.status).toBe(400);
    expect(openAi.body).toEqual({
      error: {
        message: "Unknown parameter: 'questions[0].criteria'.",
        type: 'invalid_request_error',
        param: 'questions[0].criteria',
        code: 'unknown_parameter',
      },
    });
    // OpenAI's own types refuse the same request.
    expect(openAiRequestCheck(unknownKey)?.code).toBe('unknown_parameter');
  });
});
