import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, FileSecretStore, ownerOnlyFileCodec } from '../../core';
import { buildEvalCommand, reportSchema, runCommand } from '../../test-support/eval-command';
import { LogprobProvider, logprobCatalog } from '../../test-support/logprob-provider';
import { tempDir } from '../../test-support/temp-core';
import { LATE, lateP, N, TOPIC, ticketLabels, ticketLines, ticketSet, topicAnswer } from '../../test-support/ticket-evals';

type Changed = { id: string; question: string; model: string; change: string; baseline_answer: string; run_answer: string };
type Report = {
  run: { id: string; dataset_id: string };
  models: { model: string; cost_usd: number; latency_ms: unknown; questions: Record<string, Record<string, unknown>> }[];
  baseline: {
    source: string;
    file: string | null;
    run_id: string;
    name: string;
    changed: Changed[];
    changed_total: number;
    changed_counts: Record<string, number>;
    notes: string[];
  } | null;
  gates: { kind: string; name: string; status: string; model: string }[];
  exit_code: number;
};

/** The answers that change from version 1 of the set to version 3, worked out from the chosen answers alone. */
function changedFromV1ToV3(): string[] {
  const out: string[] = [];
  for (let i = 0; i < N; i += 1) {
    const before = lateP('alpha', 1, i) >= 0.5;
    const now = lateP('alpha', 3, i) >= 0.5;
    if (before !== now) out.push(`${before === LATE[i] ? 'worse' : now === LATE[i] ? 'better' : 'changed'} t${i} late`);
    const [b, n] = [topicAnswer('alpha', 1, i), topicAnswer('alpha', 3, i)];
    if (b !== n) out.push(`${b === TOPIC[i] ? 'worse' : n === TOPIC[i] ? 'better' : 'changed'} t${i} topic`);
  }
  return out.sort();
}

describe('verdict eval --baseline', () => {
  const dir = tempDir();
  let provider: LogprobProvider;
  let cli = '';
  const at = (f: string) => join(dir.path, f);
  const run = (version: number, extra: string[]) =>
    runCommand(cli, ['--data-dir', at('data'), '--set', at(`set-v${version}.json`), '--dataset', at('tickets.jsonl'), '--model', 'lp/alpha', ...extra]);

  beforeAll(async () => {
    cli = await buildEvalCommand('eval-baseline');
    provider = await new LogprobProvider((r) => ({ labels: ticketLabels(r) })).start();
    mkdirSync(at('data'));
    writeFileSync(at('data/catalog.json'), JSON.stringify(logprobCatalog(provider.url, ['alpha'])));
    for (const v of [1, 3]) writeFileSync(at(`set-v${v}.json`), JSON.stringify(ticketSet(v)));
    writeFileSync(at('tickets.jsonl'), ticketLines());
  }, 60_000);
  afterAll(async () => {
    await provider.close();
    dir.cleanup();
  });

  it('lists exactly the answers that changed between two versions of a set, from a results file and from a run id, and the inspector shows the run with its baseline', async () => {
    const first = await run(1, ['--results', at('v1.jsonl'), '--report', at('v1.json')]);
    expect(first.code, first.stderr).toBe(0);
    const v1 = JSON.parse(readFileSync(at('v1.json'), 'utf8')) as Report;
    // The results file records the run and its questions on its first line.
    expect(JSON.parse(readFileSync(at('v1.jsonl'), 'utf8').split('\n')[0]!)).toMatchObject({ run: { id: v1.run.id, questions: ticketSet(1).questions } });

    const expected = changedFromV1ToV3();
    // 8 worse and 1 better on late; one better, one worse and one between two wrong options on topic.
    expect(expected).toHaveLength(12);
    const listed = (r: Report) => r.baseline!.changed.map((c) => `${c.change} ${c.id} ${c.question}`).sort();

    const fromFile = await run(3, [
      '--baseline',
      at('v1.jsonl'),
      '--report',
      at('v3.json'),
      '--fail-on-regression',
      '--regression-metrics',
      'late.accuracy',
      '--min-items',
      '10',
    ]);
    expect(fromFile.code, fromFile.stderr).toBe(3);
    const v3 = JSON.parse(readFileSync(at('v3.json'), 'utf8')) as Report;
    expect(reportSchema().validate(v3)).toBe(true);
    expect(listed(v3)).toEqual(expected);
    expect(v3.baseline).toMatchObject({ source: 'file', file: 'v1.jsonl', changed_total: 12, changed_counts: { worse: 9, better: 2, changed: 1 }, notes: [] });
    expect(v3.gates).toEqual([
      expect.objectContaining({ kind: 'regression', name: 'late.accuracy not worse than the baseline', model: 'lp/alpha', status: 'fail' }),
    ]);
    expect(fromFile.stdout).toContain('Against the baseline "');
    expect(fromFile.stdout).toContain('9 answers worse, 2 better, 1 changed with neither right');

    const fromRun = await run(3, ['--baseline', v1.run.id, '--format', 'json']);
    expect(fromRun.code, fromRun.stderr).toBe(0);
    const again = JSON.parse(fromRun.stdout) as Report;
    expect(again.baseline).toMatchObject({ source: 'run', file: null, run_id: v1.run.id });
    // Over the baseline's own dataset (the file's import, the same items, is dropped): the screen can compare them.
    expect(again.run.dataset_id).toBe(v1.run.dataset_id);
    expect(listed(again)).toEqual(expected);

    // The data directory as the inspector opens it: both runs with their baselines, and the screen's comparison lists the same answers.
    const core = await createCore({
      dataDir: at('data'),
      secrets: new FileSecretStore(at('data/secrets.json'), ownerOnlyFileCodec),
      host: 'browser',
      version: 'test',
      discovery: false,
      resumeEvaluations: false,
    });
    try {
      const h = core.handlers;
      const runs = await h['evals.list']({});
      expect(runs.find((r) => r.id === v3.run.id)?.baseline_id).toBe(v3.baseline!.run_id);
      expect(runs.find((r) => r.id === again.run.id)?.baseline_id).toBe(v1.run.id);
      const v1Name = (await h['evals.get']({ id: v1.run.id })).name;
      expect(runs.find((r) => r.id === v3.baseline!.run_id)).toMatchObject({ status: 'done', name: `${v1Name} (baseline from v1.jsonl)` });
      // The screen's report of the same run: every figure it shows is the command's, to the last digit.
      const screen = await h['evals.report']({ id: v3.run.id });
      for (const [i, m] of screen.models.entries()) {
        expect(v3.models[i]).toMatchObject({ model: m.model, cost_usd: m.cost_usd, latency_ms: m.latency_ms });
        for (const [name, q] of Object.entries(m.questions)) expect(v3.models[i]!.questions[name], name).toMatchObject(q);
      }
      const compared = await h['evals.compare']({ id: v3.run.id, baseline_id: v3.baseline!.run_id });
      expect(compared.changed).toEqual(v3.baseline!.changed);
      expect(compared.runs[1]!.questions).toEqual(ticketSet(1).questions);
    } finally {
      await core.close();
    }
  }, 240_000);

  it('refuses a baseline run over other items, and a file that is not a results file (exit 2)', async () => {
    const first = await run(1, ['--format', 'json']);
    const id = (JSON.parse(first.stdout) as Report).run.id;
    writeFileSync(at('fewer.jsonl'), ticketLines().split('\n').slice(0, 30).join('\n'));
    const other = await runCommand(cli, [
      '--data-dir',
      at('data'),
      '--set',
      at('set-v3.json'),
      '--dataset',
      at('fewer.jsonl'),
      '--model',
      'lp/alpha',
      '--baseline',
      id,
    ]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/--baseline eval-[\w-]+: the run ".*" is over other items than fewer\.jsonl \(one has 30 items, the other more\)/);
    writeFileSync(at('not-results.jsonl'), '{"id":"t1","expected":{"late":true}}\n');
    const notResults = await run(3, ['--baseline', at('not-results.jsonl')]);
    expect(notResults.code).toBe(2);
    expect(notResults.stderr).toMatch(/--baseline not-results\.jsonl: line 1 is not a results line of --results: model: /);
  }, 240_000);
});
