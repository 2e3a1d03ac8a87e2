import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook, WEBHOOK_SIGNATURE_HEADER } from '../core/reviews/webhook';
import { startClientServer, type ClientServer } from '../test-support/client-server';
import { AS_DESKTOP } from '../test-support/temp-core';
import { HUMAN_QUEUE } from '../core/reviews/human-stage';

const AS_REVIEWER = { actor: { kind: 'management_key', key_id: 'key-rev', key_name: 'Rita' } } as const;

/**
 * A cascade's `human` stage on the real server: a request whose first answers meet the condition is
 * answered at once with them marked provisional and a review id; a person answers it from the review
 * queue, and the caller reads the person's answers back by that id.
 */
const TLS = join(import.meta.dirname, '..', 'test-support', 'fixtures', 'tls');
const cert = readFileSync(join(TLS, 'images-test.crt'), 'utf8');

describe('the human stage of a cascade', () => {
  let env: ClientServer;
  let admin: string;
  let other: string;
  /** A receiver on loopback that presents a certificate for `images.test` (a test's own policy lets the server reach it). */
  let receiver: Server;
  let receiverUrl: string;
  const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
  beforeAll(async () => {
    receiver = createServer({ cert, key: readFileSync(join(TLS, 'images-test.key'), 'utf8') }, (req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(received.length === 1 ? 503 : 200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `https://images.test:${(receiver.address() as AddressInfo).port}/hooks/reviews`;
    env = await startClientServer({ imageFetch: { lookup: async () => ['127.0.0.1'], allowAddress: () => true, ca: cert } });
    admin = (await env.server.core.apiKeys.create('admin', 'management')).key;
    other = (await env.server.core.apiKeys.create('other', 'standard')).key;
  }, 30_000);
  afterAll(async () => {
    await env.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

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

    // The queue's figures, for its operators.
    const queue = async () => {
      const res = await fetch(`${env.url}/api/v1/reviews`, { headers: { authorization: `Bearer ${admin}` } });
      return ((await res.json()) as { data: { pending: number; oldest_pending_seconds: number | null; reviewed_last_hour: number } }).data;
    };
    const metric = async (name: string) => {
      const line = (await (await fetch(`${env.url}/metrics`)).text()).split('\n').find((l) => l.startsWith(`${name}{queue="human"} `));
      return line === undefined ? undefined : Number(line.split(' ')[1]);
    };
    expect(await queue()).toMatchObject({ pending: 1, reviewed_last_hour: 0 });
    expect((await queue()).oldest_pending_seconds).toBeGreaterThanOrEqual(0);
    expect(await metric('verdict_review_queue_items')).toBe(1);
    expect((await fetch(`${env.url}/api/v1/reviews`, { headers: { authorization: `Bearer ${env.key}` } })).status).toBe(403);

    const h = env.server.core.handlers;
    const open = await h['review.next']({ dataset_id: HUMAN_QUEUE.id, after: -1 }, AS_REVIEWER);
    expect(open.item).toMatchObject({ id, questions, questions_from: 'capture' });
    await h['review.answer']({ dataset_id: HUMAN_QUEUE.id, position: open.item!.position, answers: { late: false }, flagged: false }, AS_REVIEWER);
    expect((await reviewOf(id)).body.data).toMatchObject({ status: 'answered', answers: { late: false }, reviewer: 'Rita (key-rev)' });
    // The request named no preset: the queue's figures are in all, none per preset.
    expect(await queue()).toEqual({ pending: 0, oldest_pending_seconds: null, reviewed_last_hour: 1, by_preset: [] });
    expect(await metric('verdict_review_queue_items')).toBe(0);
    expect(await metric('verdict_reviews_last_hour')).toBe(1);
    expect(await metric('verdict_review_queue_oldest_seconds')).toBeUndefined();
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
    // The preset's own queue: one waiting, none answered yet; then a person answers it.
    const figures = async () => {
      const res = await fetch(`${env.url}/api/v1/reviews`, { headers: { authorization: `Bearer ${admin}` } });
      return (
        (await res.json()) as { data: { by_preset: { preset: string; pending: number; oldest_pending_seconds: number | null; reviewed_last_hour: number }[] } }
      ).data.by_preset;
    };
    expect(await figures()).toEqual([{ preset: 'ask a person', pending: 1, oldest_pending_seconds: expect.any(Number), reviewed_last_hour: 0 }]);
    const h = env.server.core.handlers;
    let open = await h['review.next']({ dataset_id: HUMAN_QUEUE.id, after: -1 }, AS_REVIEWER);
    while (open.item && open.item.id !== byPreset.body['review_id'])
      open = await h['review.next']({ dataset_id: HUMAN_QUEUE.id, after: open.item.position }, AS_REVIEWER);
    await h['review.answer']({ dataset_id: HUMAN_QUEUE.id, position: open.item!.position, answers: { late: true }, flagged: false }, AS_REVIEWER);
    expect(await figures()).toEqual([{ preset: 'ask a person', pending: 0, oldest_pending_seconds: null, reviewed_last_hour: 1 }]);
  });

  it('posts the answered review to the webhook the request named, signed with its secret (tried again after a failure); a tampered body fails the check', async () => {
    const secret = 'a-secret-of-the-callers-own-1234';
    const staged = await post('/alpha/decisions', {
      model: 'sandbox/decider',
      state: 'Late, and the box was torn.',
      questions,
      cascade: { model: 'human', when: { question: 'late', probabilityBetween: [0, 1] }, webhook: { url: receiverUrl, secret } },
    });
    expect(staged.status).toBe(200);
    const id = staged.body['review_id'] as string;
    // The secret is the caller's: never given back.
    expect(JSON.stringify((await reviewOf(id)).body)).not.toContain(secret);
    const h = env.server.core.handlers;
    let open = await h['review.next']({ dataset_id: HUMAN_QUEUE.id, after: -1 }, AS_REVIEWER);
    while (open.item && open.item.id !== id) open = await h['review.next']({ dataset_id: HUMAN_QUEUE.id, after: open.item.position }, AS_REVIEWER);
    await h['review.answer']({ dataset_id: HUMAN_QUEUE.id, position: open.item!.position, answers: { late: true }, flagged: false }, AS_REVIEWER);
    await env.server.core.humanStage.settled();
    // The first delivery was answered 503; the second was taken.
    expect(received).toHaveLength(2);
    const delivery = received[1]!;
    const signature = String(delivery.headers[WEBHOOK_SIGNATURE_HEADER]);
    const t = Number(/^t=(\d+),/.exec(signature)![1]);
    expect(signature).toBe(signWebhook(secret, t, delivery.body));
    expect(JSON.parse(delivery.body)).toMatchObject({
      type: 'review.answered',
      data: { id, status: 'answered', answers: { late: true }, reviewer: 'Rita (key-rev)' },
    });
    const tampered = delivery.body.replace('"late":true', '"late":false');
    expect(tampered).not.toBe(delivery.body);
    expect(signWebhook(secret, t, tampered)).not.toBe(signature);
  }, 30_000);

  it('refuses a webhook that is not https, carries a short secret, or is on a model stage (private hosts: webhook.test.ts)', async () => {
    const refusal = async (cascade: unknown) => {
      const res = await post('/alpha/decisions', { model: 'sandbox/decider', state: 'x', questions, cascade });
      expect(res.status).toBe(400);
      return (res.body as { error: { message: string } }).error.message;
    };
    const when = { question: 'late', probabilityBetween: [0, 1] };
    expect(await refusal({ model: 'human', when, webhook: { url: 'http://hooks.example.com/x', secret: 'x'.repeat(20) } })).toBe(
      'cascade.webhook.url: only https webhook URLs are called (got http:)',
    );
    expect(await refusal({ model: 'human', when, webhook: { url: 'https://hooks.example.com/x', secret: 'short' } })).toMatch(
      /cascade\.webhook\.secret: a string of 16 to 256 characters/,
    );
    expect(await refusal({ model: 'sandbox/baseline-text', when, webhook: { url: 'https://hooks.example.com/x', secret: 'x'.repeat(20) } })).toBe(
      'cascade.webhook: only a human stage (model "human") posts its answers to a webhook',
    );
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
