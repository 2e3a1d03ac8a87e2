/**
 * The report's thresholds as JUnit XML, the format CI systems read: a test suite per model, a test
 * case per threshold (and per regression check), a failure naming the metric and both values. Test
 * case names are stable across runs and unique with their class name, which holds the model and the
 * question (GitLab matches cases by class name and name, and keeps only the first of duplicates). A
 * threshold with too little data fails as `insufficient` unless --allow-insufficient, then it is
 * skipped. A run that did not complete is an error of its own. Text that XML 1.0 cannot hold (C0
 * controls other than tab, line feed and carriage return) is dropped by the writer.
 */
import type * as XmlBuilder from 'xmlbuilder2';
import { onFirstUse } from '../../on-first-use';
import type { CiReport } from './ci-report';
import type { GateResult } from './gates';

/** Loaded with the first report written as XML: a server that never writes one never holds it. */
const xmlbuilder = onFirstUse<typeof XmlBuilder>('xmlbuilder2');

const classOf = (g: GateResult) => `verdict.${g.model}.${g.question ?? 'model'}`;

function details(g: GateResult): string {
  const lines = [
    `metric: ${g.question === null ? '' : `${g.question}.`}${g.metric}`,
    `value: ${g.value ?? 'undefined'}`,
    `interval: ${g.interval ? `[${g.interval.low}, ${g.interval.high}]` : 'none'}`,
    `compared (${g.bound}): ${g.compared ?? 'nothing'}`,
    `limit: ${g.limit}`,
    `n: ${g.n}`,
    `status: ${g.status}`,
  ];
  return `${g.message}\n${lines.join('\n')}\n`;
}

export function junitXml(report: CiReport, options: { allowInsufficient: boolean }): string {
  const doc = xmlbuilder().create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '' });
  const count = (gates: readonly GateResult[]) => ({
    failures: gates.filter((g) => g.status === 'fail' || (g.status === 'insufficient' && !options.allowInsufficient)).length,
    skipped: gates.filter((g) => g.status === 'insufficient' && options.allowInsufficient).length,
  });
  const incomplete = report.outcome === 'incomplete';
  const all = count(report.gates);
  const root = doc.ele('testsuites', {
    name: `verdict eval: ${report.run.name}`,
    tests: String(report.gates.length + (incomplete ? 1 : 0)),
    failures: String(all.failures),
    errors: String(incomplete ? 1 : 0),
  });
  const timestamp = (report.run.finished_at ?? report.run.created_at).replace(/\.\d+Z$|Z$/, '');
  if (incomplete) {
    const suite = root.ele('testsuite', { name: 'run', tests: '1', failures: '0', errors: '1', skipped: '0', timestamp });
    const message = `The run did not complete: ${report.run.status}${report.run.message ? ` (${report.run.message})` : ''}`;
    suite.ele('testcase', { classname: 'verdict.run', name: 'run completed' }).ele('error', { message, type: 'incomplete' }).txt(message);
  }
  for (const m of report.models) {
    const gates = report.gates.filter((g) => g.model === m.model);
    const c = count(gates);
    const suite = root.ele('testsuite', {
      name: m.model,
      tests: String(gates.length),
      failures: String(c.failures),
      errors: '0',
      skipped: String(c.skipped),
      timestamp,
    });
    for (const g of gates) {
      const testcase = suite.ele('testcase', { classname: classOf(g), name: g.name });
      if (g.status === 'fail') testcase.ele('failure', { message: g.message, type: g.kind === 'regression' ? 'regression' : 'threshold' }).txt(details(g));
      else if (g.status === 'insufficient' && !options.allowInsufficient) testcase.ele('failure', { message: g.message, type: 'insufficient' }).txt(details(g));
      else if (g.status === 'insufficient') testcase.ele('skipped', {}).txt(g.message);
      testcase.ele('system-out').txt(details(g));
    }
  }
  return doc.end({ prettyPrint: true }) + '\n';
}
