import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClientServer, type ClientServer } from '../test-support/client-server';
import { AS_DESKTOP } from '../test-support/temp-core';

/**
 * Capture rules through the real server: managed with a management key on `/api/v1/captures`,
 * picking live requests that the official OpenAI SDK and the spec's route send, by key, by saved
 * question set and by a condition on the answers; `x-verdict-capture: off` keeps a request out.
 */
describe('capture rules on the headless server', () => {
  let env: ClientServer;
  let admin: string;
  let clientKeyId: string;
  let other: string;
  beforeAll(async () => {
    env = await startClientServer();
    admin = (await env.server.core.apiKeys.create('admin', 'management')).key;
    other = (await env.server.core.apiKeys.create('other', 'standard')).key;
    clientKeyId = (await env.server.core.apiKeys.verify(env.key))!.id;
  }, 30_000);
  afterAll(() => env.close());

  const api = (path: string, init: { method?: string; body?: unknown; key?: string } = {}) =>
    fetch(`${env.url}/api/v1${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${init.key ?? admin}`, 'content-type': 'application/json' },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
  const createRule = async (body: unknown) => {
    const res = await api('/captures', { method: 'POST', body });
    expect(res.status).toBe(201);
    return ((await res.json()) as { data: { id: string; dataset_id: string } }).data;
  };
  const rules = async () => ((await (await api('/captures')).json()) as { data: { id: string; captured_today: number; captured_total: number }[] }).data;
  const itemsOf = async (datasetId: string) => (await env.server.core.handlers['datasets.items']({ dataset_id: datasetId, offset: 0, limit: 100 })).items;
  const removeRule = async (id: string) => expect((await api(`/captures/${id}`, { method: 'DELETE' })).status).toBe(200);

  it("traffic sent with the OpenAI SDK through the rule's key lands in its dataset with the answers as predictions; another key's and one marked off do not", async () => {
    const rule = await createRule({ name: 'support traffic', key_ids: [clientKeyId] });
    const client = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${env.url}/api/v1`, maxRetries: 0 });
    const ask = (apiKey: string, input: string, headers?: Record<string, string>) =>
      client(apiKey).decisions.create(
        { model: 'sandbox/decider', input, questions: [{ type: 'predicate', name: 'late', instructions: 'Did the parcel come late?' }] },
        headers ? { headers } : undefined,
      );
    const first = await ask(env.key, 'The parcel came two days late.');
    await ask(env.key, 'Arrived on time, thanks.');
    await ask(other, 'Where is my parcel?');
    await ask(env.key, 'Keep this one out of any dataset.', { 'x-verdict-capture': 'off' });
    await env.server.core.captureTap.flush();

    const items = await itemsOf(rule.dataset_id);
    expect(items.map((i) => JSON.stringify(i.state))).toEqual([expect.stringContaining('two days late'), expect.stringContaining('on time')]);
    // Predictions, never labels.
    expect(items.every((i) => Object.keys(i.expected).length === 0)).toBe(true);
    const [prediction] = await env.server.core.captures.predictions(rule.dataset_id, [items[0]!.position]);
    expect(prediction).toMatchObject({ rule_id: rule.id, key_id: clientKeyId, model: 'sandbox/decider', request_id: items[0]!.id });
    expect((prediction!.answers as Record<string, { type: string; noul: number }>)['late']!.noul).toBeCloseTo(
      (first.answers[0] as OpenAI.Decision.AnswerResourcePredicate).probability,
      6,
    );
    expect(prediction!.cost).toBeGreaterThan(0);
    expect((await rules()).find((r) => r.id === rule.id)).toMatchObject({ captured_today: 2, captured_total: 2 });
    await removeRule(rule.id);
  });

  it('a rule made for a saved question set takes requests asking its questions, in any key order, and only those whose answers meet its condition', async () => {
    const questions = {
      late: { type: 'noul' as const, instructions: 'Did the parcel come late?' },
      mood: { type: 'choice' as const, instructions: 'Mood?', criteria: { calm: 'no anger', angry: null } },
    };
    const set = await env.server.core.handlers['sets.save'](
      { name: 'Parcels', request: { model: 'sandbox/baseline-text', state: 'x', questions } },
      AS_DESKTOP,
    );
    const rule = await createRule({ name: 'unsure parcels', question_set_id: set.id, when: { question: 'late', probabilityBetween: [0.2, 1] } });
    const send = async (body: unknown) => {
      const res = await fetch(`${env.url}/api/alpha/decisions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as { answers: { late: { noul: number } } };
    };
    // The same questions, written in another order of keys: the same set.
    const reordered = { mood: { criteria: { angry: null, calm: 'no anger' }, instructions: 'Mood?', type: 'choice' }, late: questions.late };
    const texts = ['late again, furious', 'on time', 'two weeks late', 'lost, then found', 'came early', 'damaged and late'];
    const taken: string[] = [];
    for (const text of texts) {
      const answer = await send({ model: 'sandbox/baseline-text', state: text, questions: reordered });
      if (answer.answers.late.noul >= 0.2) taken.push(text);
    }
    // Other instructions: another set, never taken.
    await send({ model: 'sandbox/baseline-text', state: 'late', questions: { ...questions, late: { type: 'noul', instructions: 'Was it late?' } } });
    await env.server.core.captureTap.flush();
    // Both sides of the condition were met by some request.
    expect(taken.length).toBeGreaterThan(0);
    expect(taken.length).toBeLessThan(texts.length);
    expect((await itemsOf(rule.dataset_id)).map((i) => i.state)).toEqual(taken);
    await removeRule(rule.id);
  });

  it('only management keys manage rules; every refusal names what is wrong; making and removing are in the audit log', async () => {
    expect((await api('/captures', { key: env.key })).status).toBe(403);
    expect((await api('/captures', { method: 'POST', key: env.key, body: { name: 'x' } })).status).toBe(403);
    const refusal = async (body: unknown) => {
      const res = await api('/captures', { method: 'POST', body });
      expect(res.status).toBe(400);
      return ((await res.json()) as { error: { message: string } }).error.message;
    };
    expect(await refusal({ name: 'typo', sample_rat: 0.5 })).toMatch(/sample_rat: unknown property "sample_rat" is not allowed here/);
    expect(await refusal({ name: 'bad condition', when: { confidenceBelow: 2 } })).toMatch(/when\.confidenceBelow: must be at most 1/);
    expect(await refusal({ name: 'bad rate', sample_rate: 0 })).toMatch(/sample_rate.*above 0/);
    expect(await refusal({ name: 'no key', key_ids: ['key-nope'] })).toMatch(/key_ids\[0\]: no API key with id "key-nope"/);
    expect(await refusal({ name: 'no model', models: ['acme/nothing'] })).toMatch(/models\[0\]: no model "acme\/nothing"/);
    expect(await refusal({ name: 'no set', question_set_id: 'set-nope' })).toMatch(/question_set_id: no question set with id "set-nope"/);
    expect(await refusal({ name: 'no dataset', dataset_id: 'ds-nope' })).toMatch(/dataset_id: no dataset with id "ds-nope"/);
    const set = await env.server.core.handlers['sets.save'](
      { name: 'One question', request: { model: 'sandbox/baseline-text', state: 'x', questions: { late: { type: 'noul', instructions: 'Late?' } } } },
      AS_DESKTOP,
    );
    expect(await refusal({ name: 'wrong question', question_set_id: set.id, when: { question: 'mood', confidenceBelow: 0.5 } })).toMatch(
      /when\.question: the request has no question "mood"/,
    );
    expect((await api('/captures/capture-nope', { method: 'DELETE' })).status).toBe(404);

    const rule = await createRule({ name: 'audited', sample_rate: 0.5, daily_cap: 10, retention_days: 3 });
    expect(await rules()).toContainEqual(expect.objectContaining({ id: rule.id, sample_rate: 0.5, daily_cap: 10, retention_days: 3, keep_images: false }));
    await removeRule(rule.id);
    expect((await rules()).some((r) => r.id === rule.id)).toBe(false);
    const audit = (await (await api('/audit?target_kind=capture')).json()) as { data: { entries: { action: string; actor: { key_name?: string } }[] } };
    expect(audit.data.entries.slice(0, 2).map((e) => [e.action, e.actor.key_name])).toEqual([
      ['capture.delete', 'admin'],
      ['capture.create', 'admin'],
    ]);
  });
});
