import { describe, expect, it } from 'vitest';
import type { BoxItem } from '../../../../shared/schemas/inspector';
import { DEFAULT_QUESTIONS, iousOf, matches, verdictOn, neighbour, NO_FILTER, questionsFor, toBoxImages, worstIou } from './review';

const item = (over: Partial<BoxItem>): BoxItem => ({
  id: 'i',
  name: 'a.png',
  data_url: '',
  truth: [],
  answer: null,
  answers: {},
  model: null,
  run_id: null,
  verdict: null,
  stale: false,
  stale_reason: null,
  verdict_model: null,
  note: '',
  verdicts: {},
  history: [],
  width: 100,
  height: 50,
  created_at: '',
  ...over,
});
const card = { top: 0, left: 0, bottom: 0.5, right: 0.5 };
const half = { top: 0, left: 0, bottom: 0.5, right: 0.25 };
const badge = { top: 0.5, left: 0.5, bottom: 1, right: 1 };

describe('review queue', () => {
  const two = item({
    truth: [
      { ...card, label: 'card' },
      { ...badge, label: 'badge' },
    ],
    answers: { card: half, badge },
  });

  it('scores each question against the truth box of the same label, not the best of any', () => {
    // The card answer covers half the card (IoU 0.5); against the badge box it would be 0.
    expect(iousOf(two)).toEqual({ card: 0.5, badge: 1 });
    expect(worstIou(two)).toBe(0.5);
    expect(worstIou(two, 'badge')).toBe(1);
    // An older item: unlabelled truth and one answer are the question "box".
    expect(iousOf(item({ truth: [card], answer: half }))).toEqual({ box: 0.5 });
  });

  it('filters by verdict, stale, question and IoU range', () => {
    const accepted = item({ ...two, verdict: 'accepted' });
    expect(matches(two, NO_FILTER)).toBe(true);
    expect(matches(two, { ...NO_FILTER, verdict: 'unreviewed' })).toBe(true);
    expect(matches(accepted, { ...NO_FILTER, verdict: 'unreviewed' })).toBe(false);
    expect(matches(accepted, { ...NO_FILTER, verdict: 'stale' })).toBe(false);
    expect(matches({ ...accepted, stale: true }, { ...NO_FILTER, verdict: 'stale' })).toBe(true);
    expect(matches(two, { ...NO_FILTER, maxIou: 0.6 })).toBe(true);
    expect(matches(two, { ...NO_FILTER, maxIou: 0.6, question: 'badge' })).toBe(false);
    expect(matches(two, { ...NO_FILTER, minIou: 0.9, question: 'badge' })).toBe(true);
    expect(matches(two, { ...NO_FILTER, question: 'cup' })).toBe(false);
    expect(matches(item({}), { ...NO_FILTER, minIou: 0 })).toBe(false);
  });

  it("with a question, filters by the verdict on that question's answer, not the image's", () => {
    const judged = (card: 'accepted' | 'rejected' | null, badge: 'accepted' | 'rejected' | null, image: BoxItem['verdict']) =>
      item({
        ...two,
        verdict: image,
        verdicts: Object.fromEntries(
          Object.entries({ card, badge })
            .filter(([, v]) => v !== null)
            .map(([q, v]) => [q, { verdict: v!, note: '', whole_image: false, stale: false, stale_reason: null }]),
        ),
      });
    // Card accepted, badge rejected: the image reads rejected, its card answer accepted.
    const img01 = judged('accepted', 'rejected', 'rejected');
    // Only the badge judged: the card answer has no verdict.
    const img02 = judged(null, 'rejected', 'rejected');
    expect(matches(img01, { ...NO_FILTER, question: 'card', verdict: 'rejected' })).toBe(false);
    expect(matches(img01, { ...NO_FILTER, question: 'card', verdict: 'accepted' })).toBe(true);
    expect(matches(img01, { ...NO_FILTER, question: 'badge', verdict: 'rejected' })).toBe(true);
    expect(matches(img02, { ...NO_FILTER, question: 'card', verdict: 'rejected' })).toBe(false);
    expect(matches(img02, { ...NO_FILTER, question: 'card', verdict: 'unreviewed' })).toBe(true);
    expect(matches(img02, { ...NO_FILTER, verdict: 'rejected' })).toBe(true);
    const staleBadge = item({ ...img01, verdicts: { ...img01.verdicts, badge: { ...img01.verdicts['badge']!, stale: true } }, stale: true });
    expect(matches(staleBadge, { ...NO_FILTER, question: 'badge', verdict: 'stale' })).toBe(true);
    expect(matches(staleBadge, { ...NO_FILTER, question: 'card', verdict: 'stale' })).toBe(false);
    // An image judged before verdicts were per answer: its verdict is every question's.
    expect(verdictOn(item({ verdict: 'accepted' }), 'card')).toEqual({ verdict: 'accepted', stale: false });
  });

  it('steps through the queue and stops at its ends', () => {
    expect(neighbour(['a', 'b', 'c'], 'b', 1)).toBe('c');
    expect(neighbour(['a', 'b', 'c'], 'c', 1)).toBeNull();
    expect(neighbour(['a', 'b', 'c'], 'a', -1)).toBeNull();
    expect(neighbour(['a', 'b'], 'gone', 1)).toBe('a');
  });

  it('adds labels found on truth to the questions, and exports IoU per answer', () => {
    expect(questionsFor([{ name: 'card', instructions: 'the card' }], [two]).map((q) => q.name)).toEqual(['card', 'badge']);
    // The untouched starting question is left out when the truth names every object…
    expect(questionsFor(DEFAULT_QUESTIONS, [two]).map((q) => q.name)).toEqual(['card', 'badge']);
    // …kept when some truth box is unlabelled (it answers "box"), or when the user chose it.
    const unlabelled = { ...two, truth: [...two.truth, { top: 0, left: 0, bottom: 0.5, right: 0.5 }] };
    expect(questionsFor(DEFAULT_QUESTIONS, [unlabelled]).map((q) => q.name)).toEqual(['box', 'card', 'badge']);
    expect(questionsFor([{ name: 'box', instructions: 'the parcel' }], [two]).map((q) => q.name)).toEqual(['box', 'card', 'badge']);
    expect(questionsFor(DEFAULT_QUESTIONS, []).map((q) => q.name)).toEqual(['box']);
    const [image] = toBoxImages([two]);
    expect(image!.answers.map((a) => [a.label, a.iou])).toEqual([
      ['card', 0.5],
      ['badge', 1],
    ]);
    expect(image).toMatchObject({ width: 100, height: 50, review: { verdict: null, stale: false } });
  });
});
