import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateCondition } from '../../../shared/cascade/conditions';
import type { Answer } from '../../../shared/schemas/answer';
import type { Question } from '../../../shared/schemas/question';
import { pickPoint } from '../../../shared/evaluations/cascade-pick';
import { dispatch } from '../dispatch';
import { tempCore, type TempCore, AS_DESKTOP } from '../../test-support/temp-core';
import { until } from '../../test-support/until';

const QUESTIONS = {
  late: { type: 'noul' as const, instructions: 'Did the parcel arrive late?' },
  topic: { type: 'choice' as const, instructions: 'Topic?', criteria: { delivery: 'late parcel, delivery, courier', billing: 'invoice, refund, charge' } },
};
const CSV =
  'id,state,expected.late,expected.topic\n' +
  Array.from({ length: 24 }, (_, i) => {
    const late = i % 3 !== 0;
    const text = [`parcel ${i} arrived late, the courier lost it`, `invoice ${i} charged twice`, `a question about order ${i}`][i % 3];
    return `i${i},"${text}",${late},${i % 3 === 1 ? 'billing' : 'delivery'}`;
  }).join('\n');

/** Each model on its cheapest endpoint: what a request costs is then the same in every run (load balancing would spread them over endpoints of other prices). */
const CHEAPEST = { sort: 'price' as const };

/** The curve and the presets through the operations, on the simulated providers (deterministic answers). */
describe('cascade curve and presets operations', () => {
  let env: TempCore;
  let runId: string;
  beforeAll(async () => {
    env = await tempCore({ sandbox: { seed: 5, failures: false, timeScale: 0 } });
    const h = env.core.handlers;
    const imported = await h['datasets.import'](
      { name: 'tickets.csv', format: 'csv', content: CSV, questions: QUESTIONS, valid_only: false, take_suggestions: false },
      AS_DESKTOP,
    );
    const run = await h['evals.start']({
      request: { model: 'sandbox/cheap-mini', state: '', questions: QUESTIONS, provider: CHEAPEST },
      dataset_id: imported.dataset!.id,
      variants: [{ model: 'sandbox/cheap-mini' }, { model: 'sandbox/sharp-large' }],
      concurrency: 4,
    });
    runId = run.id;
    await until(
      () => h['evals.get']({ id: run.id }),
      (r) => r.status !== 'running',
    );
  }, 60_000);
  afterAll(() => env.cleanup());

  it("computes the run's curve from its stored answers: a picked point is what its condition does item by item", async () => {
    const h = env.core.handlers;
    const curve = await h['evals.cascadeCurve']({ id: runId, first_variant: 0, second_variant: 1, question: 'topic' });
    expect(curve.first.model).toBe('sandbox/cheap-mini');
    expect(curve.second.model).toBe('sandbox/sharp-large');
    expect(curve.items).toBe(24);
    expect(curve.excluded.total).toBe(0);
    // Each model alone agrees with the report's accuracy for the question.
    const report = await h['evals.report']({ id: runId });
    expect(curve.first.accuracy).toBeCloseTo(report.models[0]!.questions['topic']!['accuracy'] as number, 12);
    expect(curve.second.accuracy).toBeCloseTo(report.models[1]!.questions['topic']!['accuracy'] as number, 12);

    // Every point, checked against the stored results with the API's condition evaluation.
    const rows: { position: number; variant: number; answers: Record<string, Answer>; cost: number; expected: string }[] = [];
    for await (const { item, result } of env.core.evalResults.rows(runId))
      rows.push({
        position: item.position,
        variant: result.variant,
        answers: result.answers as Record<string, Answer>,
        cost: result.usage.cost ?? 0,
        expected: item.expected['topic'] as string,
      });
    for (const point of curve.points) {
      let right = 0;
      let cost = 0;
      let escalated = 0;
      for (let position = 0; position < 24; position += 1) {
        const [a, b] = [0, 1].map((v) => rows.find((r) => r.position === position && r.variant === v)!);
        const holds = evaluateCondition(point.condition, QUESTIONS as Record<string, Question>, a!.answers).holds;
        const by = holds ? b! : a!;
        right += Number((by.answers['topic'] as { choice: string }).choice === by.expected);
        cost += a!.cost + (holds ? b!.cost : 0);
        escalated += Number(holds);
      }
      expect(point.accuracy).toBeCloseTo(right / 24, 12);
      expect(point.cost_per_item).toBeCloseTo(cost / 24, 12);
      expect(point.escalated).toBeCloseTo(escalated / 24, 12);
    }
    const pick = pickPoint(curve.points, { max_cost_per_item: curve.second.cost_per_item });
    expect(pick.reached).toBe(true);
  });

  it('refuses a cascade from a model to itself, or a model the run does not have, naming the parameter', async () => {
    const h = env.core.handlers;
    await expect(h['evals.cascadeCurve']({ id: runId, first_variant: 0, second_variant: 0 })).rejects.toThrow(/^second_variant: /);
    await expect(h['evals.cascadeCurve']({ id: runId, first_variant: 0, second_variant: 2 })).rejects.toThrow(
      /^second_variant: the run has no model at place 2/,
    );
    await expect(h['evals.cascadeCurve']({ id: runId, first_variant: 0, second_variant: 1, question: 'late', family: 'confidenceBelow' })).rejects.toThrow(
      /confidenceBelow: question "late" is a yes\/no/,
    );
  });

  it('saves a preset under its name (saving again replaces it), resolves it by name, deletes it, and logs who did each', async () => {
    const h = env.core.handlers;
    const saved = await h['cascadePresets.save'](
      { name: 'topic-unsure', model: 'sandbox/sharp-large', first_model: 'sandbox/cheap-mini', when: { question: 'topic', confidenceBelow: 0.4 } },
      AS_DESKTOP,
    );
    expect(saved).toMatchObject({ name: 'topic-unsure', model: 'sandbox/sharp-large', first_model: 'sandbox/cheap-mini', source: null });
    await h['cascadePresets.save']({ name: 'topic-unsure', model: 'sandbox/sharp-large', when: { confidenceBelow: 0.6 } }, AS_DESKTOP);
    expect(await env.core.cascadePresets.presetByName('topic-unsure')).toMatchObject({
      first_model: null,
      when: { confidenceBelow: 0.6 },
      created_at: saved.created_at,
    });
    expect((await h['cascadePresets.list']({})).map((p) => p.name)).toEqual(['topic-unsure']);
    expect(await env.core.cascadePresets.presetByName('nope')).toBeNull();

    await h['cascadePresets.delete']({ name: 'topic-unsure' }, AS_DESKTOP);
    expect(await env.core.cascadePresets.presetByName('topic-unsure')).toBeNull();
    await expect(h['cascadePresets.delete']({ name: 'topic-unsure' }, AS_DESKTOP)).rejects.toThrow(/No cascade preset named "topic-unsure"/);

    const log = await h['audit.list']({ offset: 0, limit: 10, target_kind: 'cascade_preset' });
    expect(log.entries.map((e) => [e.action, e.target.name, e.actor.kind, e.details['created'] ?? null])).toEqual([
      ['cascade_preset.delete', 'topic-unsure', 'desktop', null],
      ['cascade_preset.save', 'topic-unsure', 'desktop', false],
      ['cascade_preset.save', 'topic-unsure', 'desktop', true],
    ]);
    // Saving again under the name (adopting another threshold) names what it replaced.
    expect(log.entries[1]!.details).toMatchObject({
      when: { confidenceBelow: 0.6 },
      before: { model: 'sandbox/sharp-large', when: { question: 'topic', confidenceBelow: 0.4 }, point: null },
    });
    expect(log.entries[2]!.details['before']).toBeUndefined();
  });

  it('refuses a preset whose model is unknown or whose condition is out of bounds, naming the field', async () => {
    const bad = await dispatch(
      env.core,
      'cascadePresets.save',
      { name: 'x', model: 'sandbox/sharp-large', when: { confidenceBelow: 1.5 } },
      { kind: 'desktop' },
    );
    expect(JSON.stringify(bad)).toMatch(/when.*must be at most 1/);
    await expect(env.core.handlers['cascadePresets.save']({ name: 'x', model: 'nobody/none', when: { confidenceBelow: 0.5 } }, AS_DESKTOP)).rejects.toThrow(
      /^model: no model "nobody\/none" in the catalog/,
    );
    expect(await env.core.cascadePresets.presetByName('x')).toBeNull();
  });

  it("a real cascade run over the same dataset lands on the curve: its accuracy and cost per item are the point's, item by item", async () => {
    const h = env.core.handlers;
    const curve = await h['evals.cascadeCurve']({ id: runId, first_variant: 0, second_variant: 1, question: 'topic' });
    // A point that sends some items on and keeps others (else the first escalating one).
    const point = curve.points.find((p) => p.escalated > 0 && p.escalated < 1) ?? curve.points.find((p) => p.escalated > 0)!;
    const run = await h['evals.start']({
      request: { model: 'sandbox/cheap-mini', state: '', questions: QUESTIONS, provider: CHEAPEST },
      dataset_id: (await h['evals.get']({ id: runId })).dataset_id,
      variants: [{ model: 'sandbox/cheap-mini', cascade: { model: 'sandbox/sharp-large', when: point.condition } }],
      concurrency: 4,
    });
    const done = await until(
      () => h['evals.get']({ id: run.id }),
      (r) => r.status !== 'running',
    );
    expect(done).toMatchObject({ status: 'done', done: 24, failed: 0 });
    // The run says what its variant is: the second stage and its condition, as the report's summary reads them.
    expect(done.variants).toEqual([
      {
        name: 'sandbox/cheap-mini → sandbox/sharp-large',
        model: 'sandbox/cheap-mini',
        label: null,
        cascade: { model: 'sandbox/sharp-large', when: point.condition },
      },
    ]);
    const report = await h['evals.report']({ id: run.id });
    expect(report.models[0]!.model).toBe('sandbox/cheap-mini → sandbox/sharp-large');
    expect(report.models[0]!.questions['topic']!['accuracy'] as number).toBeCloseTo(point.accuracy!, 12);
    expect(done.spent_usd / 24).toBeCloseTo(point.cost_per_item, 12);
  }, 60_000);
});
