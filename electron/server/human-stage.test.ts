import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClientServer, type ClientServer } from '../test-support/client-server';
import { AS_DESKTOP } from '../test-support/temp-core';
import { HUMAN_QUEUE } from '../core/reviews/human-stage';

const AS_REVIEWER = { actor: { kind: 'management_key', key_id: 'key-rev', key_name: 'Rita' } } as const;

/**
 * A cascade's `human` stage on the real server: a request whose first answers meet the condition is
 * answered at once with them marked provisional and a review id; a person answers it from the review
 * queue, and the caller reads the person's answers back by that id.
 */
describe('the human stage of a cascade', () => {
  let env: ClientServer;
  let admin: string;
  let other: string;
  beforeAll(async () => {
    env = await startClientServer();
    admin = (await env.server.core.apiKeys.create('admin', 'management')).key;
    other = (await env.server.core.apiKeys.create('other', 'standard')).key;
  }, 30_000);
  afterAll(() => env.close());

  const questions = { late: { type: 'noul', instructions: 'Did the parcel come late?' } };
  const post = async (path: string, body: unknown, key = env.key, headers: Record<string, string> = {}) => {
    const res = await fetch(`${env.url}/api${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const reviewOf = async (id: string, key = env.key) => {
    const res = await fetch(`${env.url}/api/v1/reviews/${id}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
  };

  it("answers provisionally with a review id; once a person has answered, the review returns the person's answers", async () => {
    const sure = await post('/alpha/decisions', {
      model: 'sandbox/decider',
      state: 'The parcel came two days late.',
      questions,
      cascade: { model: 'human', when: { question: 'late', probabilityBetween: [0, 1] } },
    });
    expect(sure.status).toBe(200);
    expect(sure.body).toMatchObject({
      provisional: true,
      model: 'sandbox/decider',
      cascade: { human: true, answered_by: 'sandbox/decider', triggered_by: ['late'] },
    });
    const id = sure.body['review_id'] as string;
    expect((await reviewOf(id)).body.data).toMatchObject({
      id,
      status: 'pending',
      answers: null,
      provisional: { model: 'sandbox/decider', answers: sure.body['answers'] },
    });
    // Only the key that asked, or a management key, reads it.
    expect((await reviewOf(id, other)).status).toBe(404);
    expect((await reviewOf(id, admin)).status).toBe(200);

    const h = env.server.core.handlers;
    const open = await h['review.next']({ dataset_id: HUMAN_QUEUE.id, after: -1 }, AS_REVIEWER);
    expect(open.item).toMatchObject({ id, questions, questions_from: 'capture' });
    await h['review.answer']({ dataset_id: HUMAN_QUEUE.id, position: open.item!.position, answers: { late: false }, flagged: false }, AS_REVIEWER);
    expect((await reviewOf(id)).body.data).toMatchObject({ status: 'answered', answers: { late: false }, reviewer: 'Rita (key-rev)' });
  });

  it('a request whose answers are sure is answered as usual; a preset can name the human stage; the System One route says provisional too', async () => {
    const unsure = { question: 'late', probabilityBetween: [0.99, 1] };
    const plain = await post('/alpha/decisions', { model: 'sandbox/decider', state: 'On time, thanks.', questions, cascade: { model: 'human', when: unsure } });
    expect(plain.status).toBe(200);
    expect(plain.body['provisional']).toBeUndefined();
    expect(plain.body['cascade']).toMatchObject({ answered_by: 'sandbox/decider', triggered_by: [] });

    await env.server.core.handlers['cascadePresets.save'](
      { name: 'ask a person', model: 'human', first_model: null, when: { question: 'late', probabilityBetween: [0, 1] } },
      AS_DESKTOP,
    );
    const byPreset = await post('/v1/systemone', { model: 'sandbox/decider', state: 'Late again.', questions, cascade: 'ask a person' });
    expect(byPreset.status).toBe(200);
    expect(byPreset.body).toMatchObject({ provisional: true, cascade: { human: true } });
    expect((await reviewOf(byPreset.body['review_id'] as string)).body.data).toMatchObject({ status: 'pending' });
  });

  it("the gateway protocol's fallbacks refuse a person, naming the entry", async () => {
    const refused = await post(
      '/ai/decision-model',
      {
        stateParts: [{ type: 'text', text: 'x' }],
        questions: { late: { type: 'boolean', instructions: 'Late?' } },
        providerOptions: { gateway: { models: [{ model: 'human', when: { probabilityBetween: [0, 1] } }] } },
      },
      env.key,
      { 'ai-model-id': 'sandbox/decider' },
    );
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toMatch(/providerOptions\.gateway\.models\[0\]: a person \(\\"human\\"\) answers only through the cascade extension/);
  });
});
