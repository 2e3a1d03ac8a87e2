import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateCondition } from '../../../../shared/cascade/conditions';
import type { Answer } from '../../../../shared/schemas/answer';
import type { CascadeCurve } from '../../../../shared/schemas/cascade-curve';
import type { Question } from '../../../../shared/schemas/question';
import { cascadeCurve, pickPoint, shortestIn } from './cascade-curve';
import type { ItemLabels, StoredResult } from './report';

const result = (position: number, answers: Record<string, unknown>, cost: number, latency_ms: number, ok = true): StoredResult => ({
  position,
  ok,
  answers,
  cost,
  input_tokens: 0,
  output_tokens: 0,
  latency_ms,
});
const choice = (c: string, confidence: number) => ({ type: 'choice', choice: c, confidence, probabilities: { [c]: 0.5 + confidence / 2 } });
const noul = (p: number) => ({ type: 'noul', noul: p });

/** A row of the curve as the tests write it by hand. */
const row = (c: CascadeCurve['points'][number]) => ({
  threshold: c.threshold,
  accuracy: c.accuracy,
  cost: Number(c.cost_per_item.toFixed(12)),
  escalated: c.escalated,
  mean: c.latency_ms.mean,
  p50: c.latency_ms.p50,
});

describe('a cascade curve worked out by hand', () => {
  // One choice question, four items both models answered, and two excluded: the first model failed
  // one, the second another (their figures must not become thresholds).
  const questions: Record<string, Question> = { mood: { type: 'choice', instructions: 'Which?', criteria: { a: null, b: null } } as Question };
  const items: ItemLabels[] = ['a', 'b', 'a', 'b', 'a', 'a'].map((e, position) => ({ position, expected: { mood: e } }));
  // first: right (0.9), wrong (0.2), wrong (0.5), right (0.8); second: wrong, right, right, right.
  const first = [
    result(0, { mood: choice('a', 0.9) }, 0.001, 100),
    result(1, { mood: choice('a', 0.2) }, 0.001, 110),
    result(2, { mood: choice('b', 0.5) }, 0.001, 120),
    result(3, { mood: choice('b', 0.8) }, 0.001, 130),
    result(4, { mood: choice('a', 0.1) }, 0.001, 140),
    result(5, {}, 0.001, 150, false),
  ];
  const second = [
    result(0, { mood: choice('b', 0.7) }, 0.01, 300),
    result(1, { mood: choice('b', 0.7) }, 0.01, 310),
    result(2, { mood: choice('a', 0.7) }, 0.01, 320),
    result(3, { mood: choice('b', 0.7) }, 0.01, 330),
    result(4, {}, 0.01, 340, false),
    result(5, { mood: choice('a', 0.7) }, 0.01, 350),
  ];
  const curve = cascadeCurve({ questions, items, first: { model: 'cheap', results: first }, second: { model: 'strong', results: second }, question: 'mood' });

  it('escalates below each confidence the first model gave, and the ends; both stages billed and timed', () => {
    expect(curve.family).toBe('confidenceBelow');
    expect(curve.items).toBe(4);
    expect(curve.excluded).toEqual({ total: 2, first_failed: 1, second_failed: 1 });
    expect(curve.points.map(row)).toEqual([
      // Nothing below 0 or 0.2: the first model's answers, latencies 100, 110, 120, 130.
      { threshold: 0, accuracy: 0.5, cost: 0.001, escalated: 0, mean: 115, p50: 115 },
      { threshold: 0.2, accuracy: 0.5, cost: 0.001, escalated: 0, mean: 115, p50: 115 },
      // Item 1 (0.2) goes to the strong model, which gets it right: 110 + 310 = 420 ms.
      { threshold: 0.5, accuracy: 0.75, cost: 0.0035, escalated: 0.25, mean: 192.5, p50: 125 },
      // And item 2 (0.5): 120 + 320 = 440 ms.
      { threshold: 0.8, accuracy: 1, cost: 0.006, escalated: 0.5, mean: 272.5, p50: 275 },
      { threshold: 0.9, accuracy: 1, cost: 0.0085, escalated: 0.75, mean: 355, p50: 430 },
      // Item 0 (0.9) too, which the strong model gets wrong.
      { threshold: 1, accuracy: 0.75, cost: 0.011, escalated: 1, mean: 430, p50: 430 },
    ]);
    expect(curve.points[3]!.condition).toEqual({ question: 'mood', confidenceBelow: 0.8 });
    expect(curve.points[3]!.escalated_items).toBe(2);
  });

  it('marks each model alone over the same items', () => {
    expect({ model: curve.first.model, accuracy: curve.first.accuracy, cost: curve.first.cost_per_item, mean: curve.first.latency_ms.mean }).toEqual({
      model: 'cheap',
      accuracy: 0.5,
      cost: 0.001,
      mean: 115,
    });
    expect({ accuracy: curve.second.accuracy, cost: curve.second.cost_per_item, mean: curve.second.latency_ms.mean }).toEqual({
      accuracy: 0.75,
      cost: 0.01,
      mean: 315,
    });
  });

  it('picks the cheapest threshold reaching a target, the most accurate under a ceiling, or says none does and which is closest', () => {
    const atLeast = pickPoint(curve.points, { accuracy: 0.95 });
    expect(atLeast.reached && atLeast.point.condition).toEqual({ question: 'mood', confidenceBelow: 0.8 });
    const ceiling = pickPoint(curve.points, { max_cost_per_item: 0.004 });
    expect(ceiling.reached && ceiling.point.threshold).toBe(0.5);
    const tooCheap = pickPoint(curve.points, { max_cost_per_item: 0.0005 });
    expect(tooCheap.reached).toBe(false);
    expect(!tooCheap.reached && tooCheap.closest?.threshold).toBe(0);
    expect(tooCheap.message).toMatch(/^No threshold costs \$0\.000500 per item or less: the cheapest costs \$0\.00100 \(50\.0%\)/);
  });
});

describe('a yes/no cascade: bands around 0.5', () => {
  const questions = { late: { type: 'noul', instructions: 'Late?' } } as Record<string, Question>;
  const items: ItemLabels[] = [true, false, true, false].map((e, position) => ({ position, expected: { late: e } }));
  // first: 0.9 right, 0.6 wrong, 0.45 wrong, 0.05 right; second: 0.2 wrong, 0.1 right, 0.8 right, 0.7 wrong.
  const first = [0.9, 0.6, 0.45, 0.05].map((p, i) => result(i, { late: noul(p) }, 0.002, 10));
  const second = [0.2, 0.1, 0.8, 0.7].map((p, i) => result(i, { late: noul(p) }, 0.02, 20));

  it('widens the band to take in each P(true) the first model gave, nearest 0.5 first', () => {
    const curve = cascadeCurve({ questions, items, first: { model: 'x', results: first }, second: { model: 'y', results: second } });
    expect(curve.family).toBe('probabilityBetween');
    expect(curve.question).toBeNull();
    const shown = curve.points.map((p) => ({ band: (p.condition as { probabilityBetween: number[] }).probabilityBetween, ...row(p) }));
    expect(shown.map((p) => [p.band, p.threshold, p.accuracy, p.escalated])).toEqual([
      [[0.5, 0.5], 0, 0.5, 0],
      [[0.45, 0.55], 0.05, 0.75, 0.25],
      [[0.4, 0.6], 0.1, 1, 0.5],
      [[0.1, 0.9], 0.4, 0.75, 0.75],
      [[0.05, 0.95], 0.45, 0.5, 1],
      [[0, 1], 0.5, 0.5, 1],
    ]);
    // $0.002 on every item, $0.02 more on each escalated one.
    expect(shown.map((p) => p.cost)).toEqual([0.002, 0.007, 0.012, 0.017, 0.022, 0.022].map((c) => expect.closeTo(c, 12)));
    const pick = pickPoint(curve.points, { accuracy: 0.9 });
    expect(pick.reached && pick.point.condition).toEqual({ probabilityBetween: [0.4, 0.6] });
  });

  it('names its question when asked for one, and refuses one it cannot read, naming the parameter', () => {
    const curve = cascadeCurve({ questions, items, first: { model: 'x', results: first }, second: { model: 'y', results: second }, question: 'late' });
    expect(curve.points[2]!.condition).toEqual({ question: 'late', probabilityBetween: [0.4, 0.6] });
    expect(() =>
      cascadeCurve({
        questions,
        items,
        first: { model: 'x', results: first },
        second: { model: 'y', results: second },
        question: 'late',
        family: 'confidenceBelow',
      }),
    ).toThrow(/condition\.confidenceBelow: question "late" is a yes\/no \(noul\) question/);
    expect(() => cascadeCurve({ questions, items, first: { model: 'x', results: first }, second: { model: 'y', results: second }, question: 'nope' })).toThrow(
      /question: the run has no question "nope"/,
    );
  });
});

describe('a box answer carries no confidence', () => {
  it('so confidenceBelow over every question of its kinds escalates every item, as the API would; a target above the strong model is not reached', () => {
    const B = { top: 0, bottom: 0.5, left: 0, right: 0.5 };
    const far = { top: 0.6, bottom: 0.9, left: 0.6, right: 0.9 };
    const questions = {
      late: { type: 'noul', instructions: 'Late?' },
      mood: { type: 'choice', instructions: 'Which?', criteria: { a: null, b: null } },
      spot: { type: 'box', instructions: 'Where?' },
    } as unknown as Record<string, Question>;
    const items: ItemLabels[] = [
      { position: 0, expected: { late: true, mood: 'a', spot: B } },
      { position: 1, expected: { late: true, mood: 'b', spot: B } },
    ];
    const first = [0, 1].map((i) => result(i, { late: noul(i ? 0.3 : 0.9), mood: choice('a', 0.9), spot: { type: 'box', box: far } }, 0.001, 1));
    const second = [0, 1].map((i) => result(i, { late: noul(i ? 0.8 : 0.2), mood: choice('b', 0.1), spot: { type: 'box', box: i ? far : B } }, 0.01, 1));
    const curve = cascadeCurve({ questions, items, first: { model: 'x', results: first }, second: { model: 'y', results: second } });
    expect(curve.family).toBe('confidenceBelow');
    expect(curve.questions).toEqual(['mood', 'spot']);
    expect(curve.points.map((p) => [p.threshold, p.escalated, p.accuracy])).toEqual([
      [0, 1, 0.5],
      [0.9, 1, 0.5],
      [1, 1, 0.5],
    ]);
    expect(curve.points[0]!.per_question).toEqual({ late: 0.5, mood: 0.5, spot: 0.5 });
    // The first model alone: mood right once, spot never.
    expect(curve.first.accuracy).toBe(0.25);
    const pick = pickPoint(curve.points, { accuracy: 0.6 });
    expect(pick.reached).toBe(false);
    expect(pick.message).toBe('No threshold reaches 60.0%: the most accurate reaches 50.0% at $0.0110 per item');
  });
});

// ---- The curve against the conditions evaluated item by item ----

const QUESTION_POOL: Record<string, Question> = {
  yes: { type: 'noul', instructions: 'Yes?' } as Question,
  also: { type: 'noul', instructions: 'Also?' } as Question,
  pick: { type: 'choice', instructions: 'Which?', criteria: { a: null, b: null, c: null } } as Question,
  level: { type: 'score', instructions: 'How much?', criteria: ['low', 'mid', 'high'] } as Question,
};
/** Figures on a coarse grid, so that many items tie (and 0.5 and the ends occur). */
const figure = fc.integer({ min: 0, max: 20 }).map((k) => k / 20);

function answerFor(name: string, q: Question): fc.Arbitrary<unknown> {
  if (q.type === 'noul') return figure.map(noul);
  if (q.type === 'choice') return fc.tuple(fc.constantFrom('a', 'b', 'c'), figure).map(([c, f]) => choice(c, f));
  void name;
  return fc
    .tuple(fc.integer({ min: 0, max: 2 }), fc.option(figure, { nil: undefined }))
    .map(([level, f]) => ({ type: 'score', score: level, ...(f === undefined ? {} : { confidence: f }) }));
}
function expectedFor(q: Question): fc.Arbitrary<unknown> {
  if (q.type === 'noul') return fc.boolean();
  if (q.type === 'choice') return fc.constantFrom('a', 'b', 'c');
  return fc.integer({ min: 0, max: 2 });
}

const dataset = fc
  .subarray(Object.keys(QUESTION_POOL), { minLength: 1 })
  .chain((names) => {
    const questions = Object.fromEntries(names.map((n) => [n, QUESTION_POOL[n]!]));
    const answers = fc.record(Object.fromEntries(names.map((n) => [n, fc.option(answerFor(n, questions[n]!), { nil: undefined, freq: 8 })]))) as fc.Arbitrary<
      Record<string, unknown>
    >;
    const resultArb = fc.record({
      ok: fc.integer({ min: 0, max: 7 }).map((k) => k > 0),
      answers,
      cost: fc.option(
        fc.integer({ min: 1, max: 1000 }).map((c) => c / 1e5),
        { nil: null, freq: 10 },
      ),
      latency: fc.integer({ min: 1, max: 2000 }),
    });
    const item = fc.record({
      expected: fc.record(Object.fromEntries(names.map((n) => [n, fc.option(expectedFor(questions[n]!), { nil: undefined, freq: 6 })]))) as fc.Arbitrary<
        Record<string, unknown>
      >,
      a: resultArb,
      b: resultArb,
    });
    return fc.record({
      questions: fc.constant(questions),
      items: fc.array(item, { minLength: 0, maxLength: 30 }),
      question: fc.option(fc.constantFrom(...names), { nil: undefined }),
      family: fc.constantFrom('confidenceBelow' as const, 'probabilityBetween' as const),
      at: fc.nat(),
      between: fc.integer({ min: 0, max: 19 }).map((k) => k / 20 + 1 / 40),
    });
  })
  .filter((d) => d.question === undefined || (QUESTION_POOL[d.question]!.type === 'noul') === (d.family === 'probabilityBetween'));

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const h = (s.length - 1) / 2;
  return s[Math.floor(h)]! + (h - Math.floor(h)) * (s[Math.ceil(h)]! - s[Math.floor(h)]!);
};

/** The cascade item by item: the condition judged on the first model's answers, the answering model's marks, costs and latency. */
function byHand(
  { questions, items }: { questions: Record<string, Question>; items: { expected: Record<string, unknown>; a: Res; b: Res }[] },
  condition: Parameters<typeof evaluateCondition>[0],
  scoped: string[],
) {
  const both = items.filter((i) => i.a.ok && i.b.ok);
  let correct = 0;
  let judged = 0;
  let cost = 0;
  let escalated = 0;
  const latencies: number[] = [];
  for (const i of both) {
    const holds = evaluateCondition(condition, questions, i.a.answers as Record<string, Answer>).holds;
    const by = holds ? i.b : i.a;
    for (const n of scoped) {
      const e = i.expected[n];
      const a = by.answers[n] as { type: string; noul?: number; choice?: string; score?: number } | undefined;
      if (e === undefined || a === undefined) continue;
      judged += 1;
      correct += Number(a.type === 'noul' ? a.noul! >= 0.5 === e : a.type === 'choice' ? a.choice === e : a.score === e);
    }
    cost += (i.a.cost ?? 0) + (holds ? (i.b.cost ?? 0) : 0);
    escalated += Number(holds);
    latencies.push(i.a.latency + (holds ? i.b.latency : 0));
  }
  return {
    accuracy: judged ? correct / judged : null,
    cost: both.length ? cost / both.length : 0,
    escalated: both.length ? escalated / both.length : 0,
    mean: both.length ? latencies.reduce((s, x) => s + x, 0) / both.length : null,
    p50: latencies.length ? median(latencies) : null,
  };
}
type Res = { ok: boolean; answers: Record<string, unknown>; cost: number | null; latency: number };

describe('the curve is the conditions, item by item', () => {
  it('at every threshold it reports, and between two of them, equals evaluateCondition applied to each item', () => {
    fc.assert(
      fc.property(dataset, (d) => {
        const items = d.items.map((i, position) => ({ position, expected: i.expected }));
        const toResults = (which: 'a' | 'b') =>
          d.items.map((i, position) => result(position, i[which].answers, i[which].cost as number, i[which].latency, i[which].ok));
        const curve = cascadeCurve({
          questions: d.questions,
          items: items as ItemLabels[],
          first: { model: 'a', results: toResults('a') },
          second: { model: 'b', results: toResults('b') },
          family: d.family,
          question: d.question,
        });
        const scoped = curve.questions;
        const check = (point: CascadeCurve['points'][number], condition: Parameters<typeof evaluateCondition>[0]) => {
          const want = byHand(d, condition, scoped);
          expect(point.accuracy === null).toBe(want.accuracy === null);
          if (want.accuracy !== null) expect(point.accuracy).toBeCloseTo(want.accuracy, 12);
          expect(point.cost_per_item).toBeCloseTo(want.cost, 12);
          expect(point.escalated).toBeCloseTo(want.escalated, 12);
          expect(point.latency_ms.mean === null ? null : Math.round(point.latency_ms.mean * 1e6)).toBe(want.mean === null ? null : Math.round(want.mean * 1e6));
          expect(point.latency_ms.p50).toBe(want.p50);
        };
        // A point it reports, at its own condition.
        const point = curve.points[d.at % curve.points.length]!;
        check(point, point.condition);
        // A threshold between the data's figures lands on the curve's next point (the curve is exact).
        const q = d.question === undefined ? {} : { question: d.question };
        if (d.family === 'confidenceBelow') {
          // Its point is the one escalating the same items: a point's bound is the shortest decimal
          // splitting the figures as its figure does, so it may lie either side of \`between\`.
          const condition = { ...q, confidenceBelow: d.between };
          const same = curve.points.find((p) => Math.abs(p.escalated - byHand(d, condition, scoped).escalated) < 1e-12)!;
          expect(same).toBeDefined();
          check(same, condition);
        } else {
          const w = d.between / 2;
          const within = curve.points.filter((p) => p.threshold <= w);
          check(within[within.length - 1]!, { ...q, probabilityBetween: [0.5 - w, 0.5 + w] });
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('shortestIn', () => {
  it('is the number with the fewest decimals above the lower figure and at most the upper one', () => {
    expect(shortestIn(0.41, 0.5517909999999999)).toBe(0.5);
    expect(shortestIn(0.0003, 0.0003290000000000237)).toBe(0.00032);
    expect(shortestIn(0.051, 0.051791)).toBe(0.0517);
    expect(shortestIn(0.9, 1)).toBe(1);
    expect(shortestIn(0.2, 0.2000001)).toBe(0.2000001);
  });

  it('always lies in (lo, hi]', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (a, b) => {
        fc.pre(a !== b);
        const [lo, hi] = a < b ? [a, b] : [b, a];
        const x = shortestIn(lo, hi);
        expect(x > lo && x <= hi).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
