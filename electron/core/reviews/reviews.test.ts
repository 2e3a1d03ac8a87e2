import { afterEach, describe, expect, it } from 'vitest';
import { CaptureRuleInputSchema } from '../../../shared/schemas/capture';
import { AS_DESKTOP, tempCore, type TempCore } from '../../test-support/temp-core';
import { dispatch } from '../dispatch';

const AS_ADA = { actor: { kind: 'management_key', key_id: 'key-ada', key_name: 'Ada' } } as const;
const AS_BO = { actor: { kind: 'management_key', key_id: 'key-bo', key_name: 'Bo' } } as const;

const questions = {
  late: { type: 'noul' as const, instructions: 'Late?' },
  mood: { type: 'choice' as const, instructions: 'Mood?', criteria: { calm: null, angry: null } },
  stars: { type: 'score' as const, instructions: 'How pleased?', criteria: ['not', 'somewhat', 'very'] },
};

describe('review of captured items', () => {
  let env: TempCore | undefined;
  afterEach(async () => {
    await env?.cleanup();
    env = undefined;
  });

  /** A core whose capture rule took `n` answered calls (their answers as the decision model gives them). */
  async function captured(n: number) {
    env = await tempCore({ sandbox: { seed: 5, failures: false, timeScale: 0 }, resumeEvaluations: false });
    const core = env.core;
    const rule = await core.handlers['captures.create'](CaptureRuleInputSchema.parse({ name: 'live' }), AS_DESKTOP);
    for (let i = 0; i < n; i += 1) {
      const request = { model: 'sandbox/decider', state: `ticket ${i}`, questions };
      core.captureTap.offer({
        request,
        response: {
          answers: {
            late: { type: 'noul', noul: 0.8 },
            mood: { type: 'choice', choice: 'angry', confidence: 0.5 },
            stars: { type: 'score', score: 0, confidence: 0.4 },
          },
          model: 'sandbox/decider',
          provider: 'sandbox',
          usage: { input_tokens: 10, output_tokens: 3, cost: 0.0001 },
        } as never,
        keyId: 'key-x',
        requestId: `req-${i}`,
        header: () => undefined,
        cascade: null,
        latencyMs: 100,
      });
    }
    await core.captureTap.flush();
    return { core, dataset: rule.dataset_id };
  }

  it("a reviewer answers items one by one; each answer becomes the item's expected answer with who and when, and the model's answer comes back only then", async () => {
    const { core, dataset } = await captured(3);
    const first = await core.handlers['review.next']({ dataset_id: dataset, after: -1 }, AS_ADA);
    expect(first.counts).toEqual({ open: 3, reviewed: 0, flagged: 0, second_open: 0 });
    expect(first.item).toMatchObject({ position: 0, state: 'ticket 0', questions, questions_from: 'capture', prediction: null, has_prediction: true });
    const answered = await core.handlers['review.answer'](
      { dataset_id: dataset, position: 0, answers: { late: true, mood: 'calm', stars: 2 }, flagged: false },
      AS_ADA,
    );
    expect(answered.review).toMatchObject({ reviewer: 'Ada (key-ada)', answers: { late: true, mood: 'calm', stars: 2 }, flagged: false });
    expect(answered.prediction).toMatchObject({ model: 'sandbox/decider', answers: { mood: { choice: 'angry' } } });
    expect(answered.counts).toEqual({ open: 2, reviewed: 1, flagged: 0, second_open: 0 });
    expect((await core.datasets.item(dataset, 0)).expected).toEqual({ late: true, mood: 'calm', stars: 2 });
    // Bo, at the same time, gets the next item, not Ada's.
    const second = await core.handlers['review.next']({ dataset_id: dataset, after: -1 }, AS_ADA);
    const bos = await core.handlers['review.next']({ dataset_id: dataset, after: -1 }, AS_BO);
    expect([second.item!.position, bos.item!.position]).toEqual([1, 2]);
    // Skipped, Ada's item is Bo's to take; flagged, it leaves the queue unanswered.
    await core.handlers['review.skip']({ dataset_id: dataset, position: 1 }, AS_ADA);
    const taken = await core.handlers['review.next']({ dataset_id: dataset, after: 0 }, AS_BO);
    expect(taken.item!.position).toBe(1);
    const flagged = await core.handlers['review.answer']({ dataset_id: dataset, position: 1, answers: {}, flagged: true }, AS_BO);
    expect(flagged.counts).toEqual({ open: 1, reviewed: 2, flagged: 1, second_open: 0 });
  });

  it("a reviewer leaving gives their item back at once to the next reviewer; another's item and a wrong input are refused or left alone", async () => {
    const { core, dataset } = await captured(3);
    const h = core.handlers;
    expect((await h['review.next']({ dataset_id: dataset, after: -1 }, AS_ADA)).item!.position).toBe(0);
    expect((await h['review.next']({ dataset_id: dataset, after: -1 }, AS_BO)).item!.position).toBe(1);
    // Ada cannot give back Bo's item: he keeps it, and her answer to it is still refused.
    expect(await h['review.release']({ dataset_id: dataset, position: 1 }, AS_ADA)).toEqual({ released: false });
    await expect(
      h['review.answer']({ dataset_id: dataset, position: 1, answers: { late: true, mood: 'calm', stars: 1 }, flagged: false }, AS_ADA),
    ).rejects.toThrow('item "req-1" (position 1): another reviewer has it open');
    // Ada leaves: item 0 goes to Bo now, not in ten minutes; a second release finds nothing of hers.
    expect(await h['review.release']({ dataset_id: dataset, position: 0 }, AS_ADA)).toEqual({ released: true });
    expect(await h['review.release']({ dataset_id: dataset, position: 0 }, AS_ADA)).toEqual({ released: false });
    expect((await h['review.next']({ dataset_id: dataset, after: -1 }, AS_BO)).item!.position).toBe(0);
    // A page going away may name a dataset that is gone: nothing to give back, no error.
    expect(await h['review.release']({ dataset_id: 'ds-gone', position: 0 }, AS_BO)).toEqual({ released: false });
    // Over the operations' boundary, bad input is refused naming the field.
    const bad = await dispatch(core, 'review.release', { dataset_id: dataset, position: -1 }, AS_BO.actor);
    expect(bad).toMatchObject({ ok: false, error: { code: 400 } });
    expect(JSON.stringify(bad)).toMatch(/position/);
    const missing = await dispatch(core, 'review.release', { position: 0 }, AS_BO.actor);
    expect(JSON.stringify(missing)).toMatch(/dataset_id/);
  });

  it('refuses answers that do not fit the questions, a second review of an item, and an item held by another, each naming it', async () => {
    const { core, dataset } = await captured(2);
    await core.handlers['review.next']({ dataset_id: dataset, after: -1 }, AS_ADA);
    const refusal = (input: Record<string, unknown>, as: typeof AS_ADA | typeof AS_BO = AS_ADA) =>
      core.handlers['review.answer']({ dataset_id: dataset, position: 0, answers: {}, flagged: false, ...input } as never, as).then(
        () => 'answered',
        (e: Error) => e.message,
      );
    expect(await refusal({ answers: { late: 'maybe', mood: 'furious', stars: 7, extra: 1 } })).toBe(
      'answers.extra: the item has no question "extra"; answers.late: expected true or false for a noul question, got "maybe"; answers.mood: "furious" is not an option of this question (options: "calm", "angry"); answers.stars: score level 7 is out of range: expected a whole number from 0 to 2',
    );
    expect(await refusal({ answers: { late: true } })).toMatch(/answers\.mood: no answer \(answer every question, or flag the item\)/);
    expect(await refusal({ answers: { late: true, mood: 'calm', stars: 1 } }, AS_BO)).toBe('item "req-0" (position 0): another reviewer has it open');
    expect(await refusal({ answers: { late: true, mood: 'calm', stars: 1 } })).toBe('answered');
    expect(await refusal({ answers: { late: false, mood: 'calm', stars: 1 } }, AS_BO)).toBe('item "req-0" (position 0): already reviewed or labelled');
  });

  it('with double review on, a second reviewer answers each item blind to the first, the first answer stays the label, and agreement is kappa per question', async () => {
    const { core, dataset } = await captured(4);
    await core.handlers['settings.update']({ review_double_share: 1 });
    const answers = [
      { late: true, mood: 'calm', stars: 2 },
      { late: false, mood: 'angry', stars: 0 },
      { late: true, mood: 'angry', stars: 1 },
      { late: false, mood: 'calm', stars: 1 },
    ];
    for (const [i, a] of answers.entries()) {
      const next = await core.handlers['review.next']({ dataset_id: dataset, after: i - 1 }, AS_ADA);
      await core.handlers['review.answer']({ dataset_id: dataset, position: next.item!.position, answers: a, flagged: false }, AS_ADA);
    }
    // Ada has answered them all: nothing is open to her; Bo gets each of them once.
    const mine = await core.handlers['review.next']({ dataset_id: dataset, after: -1 }, AS_ADA);
    expect(mine).toMatchObject({ item: null, counts: { open: 0, reviewed: 4, second_open: 4 } });
    const bo = [
      { late: true, mood: 'calm', stars: 2 },
      { late: false, mood: 'calm', stars: 0 },
      { late: true, mood: 'angry', stars: 1 },
      { late: true, mood: 'calm', stars: 1 },
    ];
    for (const [i, a] of bo.entries()) {
      const next = await core.handlers['review.next']({ dataset_id: dataset, after: i - 1 }, AS_BO);
      expect(next.item!.position).toBe(i);
      await core.handlers['review.answer']({ dataset_id: dataset, position: i, answers: a, flagged: false }, AS_BO);
    }
    expect((await core.handlers['review.next']({ dataset_id: dataset, after: -1 }, AS_BO)).item).toBeNull();
    // A third is refused; the labels are Ada's.
    await expect(
      core.handlers['review.answer']({ dataset_id: dataset, position: 0, answers: answers[0]!, flagged: false }, { actor: { kind: 'desktop' } }),
    ).rejects.toThrow('already reviewed or labelled');
    expect((await core.datasets.item(dataset, 1)).expected).toEqual(answers[1]);
    const agreed = await core.handlers['review.agreement']({ dataset_id: dataset });
    expect(agreed.map((q) => [q.question, q.pairs, q.observed])).toEqual([
      ['late', 4, 0.75],
      ['mood', 4, 0.75],
      ['stars', 4, 1],
    ]);
    // late: Ada yes 2/4, Bo yes 3/4: pe = 0.5·0.75 + 0.5·0.25 = 0.5, kappa = (0.75 − 0.5) / 0.5.
    expect(agreed[0]!.kappa).toBeCloseTo(0.5, 10);
  });

  it('shows the model answer beside the item when the blind setting is off, and asks for a question set for items not captured', async () => {
    const { core, dataset } = await captured(1);
    await core.handlers['settings.update']({ review_blind: false });
    const next = await core.handlers['review.next']({ dataset_id: dataset, after: -1 }, AS_ADA);
    expect(next.item!.prediction).toMatchObject({ model: 'sandbox/decider', answers: { late: { noul: 0.8 } } });
    const imported = await core.handlers['datasets.import'](
      { name: 'plain', format: 'jsonl', content: '{"id":"a","state":"late parcel","expected":{}}', questions, valid_only: false, take_suggestions: false },
      AS_DESKTOP,
    );
    const refused = await core.handlers['review.next']({ dataset_id: imported.dataset!.id, after: -1 }, AS_ADA).catch((e: Error) => e.message);
    expect(refused).toBe('question_set_id: this item was not captured with its questions; choose the question set to review it with');
    const set = await core.handlers['sets.save']({ name: 'Parcels', request: { model: 'sandbox/decider', state: 'x', questions } }, AS_DESKTOP);
    const withSet = await core.handlers['review.next']({ dataset_id: imported.dataset!.id, question_set_id: set.id, after: -1 }, AS_ADA);
    expect(withSet.item).toMatchObject({ id: 'a', questions_from: 'question_set', has_prediction: false, prediction: null });
  });
});
