import { describe, expect, it } from 'vitest';
import { imageLine, verdictLine, verdictSummary } from './review-text';

const card = { left: 0.1, right: 0.5, top: 0.1, bottom: 0.5 };

describe('what is said as the review moves', () => {
  it('names the image, its place in the queue and each answer’s IoU or its missing truth', () => {
    // The answer covers the truth's left half: IoU 0.5.
    const item = { name: 'img02.png', answer: null, answers: { card: { ...card, right: 0.3 }, badge: card }, truth: [{ ...card, label: 'card' }] };
    expect(imageLine(item, 1, 3)).toBe('img02.png, image 2 of 3: card IoU 0.500, badge no truth.');
  });

  it('says when an image has nothing to judge yet', () => {
    expect(imageLine({ name: 'a.png', answer: null, answers: {}, truth: [{ ...card, label: 'card' }] }, 0, 1)).toBe('a.png, image 1 of 1: no answer yet.');
    expect(imageLine({ name: 'a.png', answer: null, answers: {}, truth: [] }, 0, 2)).toBe('a.png, image 1 of 2: no answer and no truth yet.');
  });

  it('says which verdict was given on what', () => {
    expect(verdictLine('card', 'accepted')).toBe('card accepted.');
    expect(verdictLine(null, 'rejected')).toBe('The whole image rejected.');
    expect(verdictLine('badge', null)).toBe('badge: verdict cleared.');
  });

  it('says which answers a verdict rejected and which it accepted, not that the image was rejected', () => {
    const v = (verdict: 'accepted' | 'rejected') => ({ verdict, note: '', whole_image: false, stale: false, stale_reason: null });
    const model = 'sandbox/baseline-vision';
    expect(verdictSummary({ verdict: 'rejected', verdict_model: model, verdicts: { card: v('accepted'), badge: v('rejected') } })).toBe(
      'Rejected: badge · Accepted: card · on the answers of sandbox/baseline-vision',
    );
    expect(verdictSummary({ verdict: 'accepted', verdict_model: model, verdicts: { card: v('accepted'), badge: v('accepted') } })).toBe(
      'Accepted: badge, card · on the answers of sandbox/baseline-vision',
    );
    expect(verdictSummary({ verdict: null, verdict_model: model, verdicts: { card: v('accepted') } })).toBe(
      'Accepted: card · on the answers of sandbox/baseline-vision',
    );
    // A verdict on the whole image, one given before verdicts were per answer, and none.
    const whole = { ...v('accepted'), whole_image: true };
    expect(verdictSummary({ verdict: 'accepted', verdict_model: model, verdicts: { card: whole, badge: whole } })).toBe(
      'Accepted · on the answer of sandbox/baseline-vision',
    );
    expect(verdictSummary({ verdict: 'rejected', verdict_model: null, verdicts: {} })).toBe('Rejected · on the answer of model unknown');
    expect(verdictSummary({ verdict: null, verdict_model: null, verdicts: {} })).toBeNull();
  });
});
